// The bundle as a tar.gz: its files, its documents and the manifest that describes them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bundle/bundle_tree.hpp"
#include "bundle/limits.hpp"
#include "os/live_answers.hpp"

namespace rdmi::bundle {

/// What a bundle says about its run besides the files.
struct BundleInfo {
    std::string tool_version;
    std::string generated_at;  ///< ISO-8601 UTC
    std::string root;          ///< the root gathered ("/" when live)
    bool live = false;
    bool redacted = false;
    Caps caps;
    BundleLimits limits = kBundleLimits;  ///< what the replay accepts (fit_to_limits)
    std::map<std::string, std::size_t> redaction_counts;
    int redactor_version = 0;                 ///< kRedactorVersion when redacted
    std::vector<Skipped> redaction_excluded;  ///< files left out: no same-length redaction
};

/// The documents a bundle carries (already redacted when the bundle is).
struct Documents {
    std::string report;    ///< the report JSON of the gathered run
    std::string captured;  ///< captured_document()
};

/// The captured document: the options that change what is probed (--doca-prefix), the
/// environment variables asked and the live-only answers.
nlohmann::ordered_json captured_document(
    bool live, const std::string& doca_prefix,
    const std::map<std::string, std::optional<std::string>>& env,
    const std::vector<RecordedAnswer>& answers);

/// The manifest's record of one stored object, with `sha256` as its digest.
nlohmann::ordered_json file_record(const Entry& e, std::string_view sha256);
/// The manifest's record of something not stored (`limit` only when one was reached).
nlohmann::ordered_json skipped_record(const Skipped& s);
/// The manifest's record of a failed operation of the gathered run.
nlohmann::ordered_json error_record(const FailedAccess& f);

/// The manifest (schemas/rdmi-probe-bundle-manifest.schema.json) of `tree`.
nlohmann::ordered_json manifest(const BundleInfo& info, const Tree& tree, const Documents& docs);

/// The verdicts a replay cannot reproduce, and why (also in the manifest and docs/gather.md).
nlohmann::ordered_json not_replayable(const BundleInfo& info, const Tree& tree);

/// The gzip-compressed tar of `tree`, the documents and `manifest_text`, all below kTopDir.
/// A Gap when libarchive fails (the message names why).
Result<std::string> archive_bytes(const Tree& tree, const Documents& docs,
                                  const std::string& manifest_text, long long mtime);

}  // namespace rdmi::bundle
