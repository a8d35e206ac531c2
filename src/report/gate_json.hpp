// The `check` document: the structured-tools contract's validate-before-commit shape
// (docs/reference/structured-tools-contract.md#validate-before-commit).
#pragma once

#include "check/evaluate.hpp"
#include "contract/document.hpp"
#include "report/contract_common.hpp"

namespace rdmi::json {

/// The contract's `library` for this tool.
inline constexpr const char* kValidateLibrary = "doca-rdmi";

/// {library, spec_path, result, checks[{name,status,details,remediation}]}, with each check's
/// first source recorded as the provenance of /checks/<i>.
contract::Document check_document(const gate::GateReport& gate);

/// The document as JSON: the body plus x_rdmi_probe unless `strict_contract`.
contract::Json check_json(const gate::GateReport& gate, const RunFacts& run, bool strict_contract);

}  // namespace rdmi::json
