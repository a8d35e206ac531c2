// The `check` document: the structured-tools contract's validate-before-commit shape.
#pragma once

#include "check/evaluate.hpp"
#include "probes/report.hpp"
#include "report/json_common.hpp"

namespace rdmi::json {

/// The validate-before-commit schema's $id.
inline constexpr const char* kValidateSchemaId = "urn:rdmi-probe:schema:validate-before-commit";
/// The contract's `library` for this tool.
inline constexpr const char* kValidateLibrary = "doca-rdmi";

/// {library, spec_path, result, checks[{name,status,details,remediation}]} plus, unless
/// `strict_contract`, one `x_rdmi_probe` object (tool, schema, run, each check's sources).
Json check_document(const check::GateReport& gate, const RunInfo& run, bool strict_contract);

}  // namespace rdmi::json
