// The finding catalog as a document: `check --list-checks` (text or JSON) and `check --explain`.
#pragma once

#include <string>

#include "core/finding_catalog.hpp"
#include "report/text_style.hpp"

namespace rdmi::findings {

/// The schema id of the catalog document.
inline constexpr const char* kFindingsSchemaId = "urn:rdmi-probe:schema:findings";

/// {"schema", "schema_version", "tool", "findings": [{"id", "pattern", "emitted_by", "meaning",
/// "fix"}]}: every catalogued finding in catalog order, or only `only` when given.
std::string catalog_json(const FindingInfo* only = nullptr);

/// One block per finding: "id  [who emits it]", then its meaning and fix, indented.
std::string catalog_text(const text::TextStyle& style);

/// One finding's block, as in catalog_text.
std::string finding_text(const text::TextStyle& style, const FindingInfo& info);

}  // namespace rdmi::findings
