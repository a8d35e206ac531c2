// Redaction of a whole bundle: its stored files, their names and link texts, its documents and
// the --root path, and what the manifest says about it.
#pragma once

#include <string>

#include "bundle/bundle_tree.hpp"
#include "bundle/redact.hpp"
#include "bundle/writer.hpp"

namespace rdmi::bundle {

/// Redacts `tree` (contents, names, link texts), `docs` and `info.root` in place, and fills
/// `info`'s redaction facts: the counts, the redactor's version and the files left out (also
/// in `tree.skipped`, so that a replay says why they are missing). A binary file keeps its
/// length; one that cannot (docs/gather.md) is left out.
void redact_bundle(Redactor& redactor, Tree& tree, Documents& docs, BundleInfo& info);

/// A document's text (the manifest, which quotes what was read) redacted like the others:
/// `host_root`, the --root path as given, replaced by `shown_root` first.
std::string redact_document(Redactor& redactor, std::string_view text, std::string_view name,
                            const std::string& host_root, const std::string& shown_root);

}  // namespace rdmi::bundle
