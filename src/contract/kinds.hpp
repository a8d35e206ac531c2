// The documents rdmi-probe knows: contract shapes and its own, with schema ids and the exact
// top-level field sets of the contract shapes (for recognising a --strict-contract document).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "contract/document.hpp"
#include "core/result.hpp"

namespace rdmi::contract {

/// One kind of document.
struct DocumentKind {
    std::string_view name;                     ///< "doca-env", "collect-state", "report", ...
    std::string_view schema_id;                ///< "urn:rdmi-probe:schema:doca-env"
    bool contract = false;                     ///< one of the structured-tools contract's shapes
    std::span<const std::string_view> fields;  ///< contract shapes: exact top-level fields
};

/// The version every contract schema and x_rdmi_probe extension declares.
inline constexpr std::string_view kContractSchemaVersion = "1.3.0";
/// The diff document's schema version: its own shape moves apart from the contract documents'
/// (a member they add is only a new pointer in a diff's changes).
inline constexpr std::string_view kDiffSchemaVersion = "2.0.0";

/// The doca-env schema id.
inline constexpr std::string_view kDocaEnvSchema = "urn:rdmi-probe:schema:doca-env";
/// The capability-snapshot schema id.
inline constexpr std::string_view kCapabilitySnapshotSchema =
    "urn:rdmi-probe:schema:capability-snapshot";
/// The collect-host-state / collect-dpu-state schema id (one shape for both sides).
inline constexpr std::string_view kCollectStateSchema = "urn:rdmi-probe:schema:collect-state";
/// The validate-before-commit schema id.
inline constexpr std::string_view kValidateSchema = "urn:rdmi-probe:schema:validate-before-commit";
/// The version-matrix.json schema id.
inline constexpr std::string_view kVersionMatrixSchema = "urn:rdmi-probe:schema:version-matrix";
/// The diff document's schema id.
inline constexpr std::string_view kDiffSchema = "urn:rdmi-probe:schema:diff";

/// Every kind, contract shapes first.
std::span<const DocumentKind> document_kinds();

/// The kind whose schema id is `schema_id`, or nullptr.
const DocumentKind* kind_by_schema(std::string_view schema_id);

/// What a saved document is. The rule, in order: x_rdmi_probe.schema (contract documents with
/// the extension); else a top-level "schema" string (rdmi-probe's own documents); else the
/// shape: a contract kind whose exact top-level field set the document has (--strict-contract
/// output, or another tool's). A Gap (malformed) when none applies.
Result<const DocumentKind*> identify_document(const Json& document);

}  // namespace rdmi::contract
