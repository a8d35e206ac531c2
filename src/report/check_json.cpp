// The `check` document. Only the contract's four fields plus x_rdmi_probe: consumers of the
// contract validate with additionalProperties false.
#include "report/check_json.hpp"

#include "build_info.hpp"

namespace rdmi::json {

Json check_document(const check::GateReport& gate, const RunInfo& run, bool strict_contract) {
    Json checks = Json::array();
    Json provenance = Json::array();
    for (const auto& c : gate.checks) {
        checks.push_back(
            {{"name", c.id},
             {"status", to_string(c.status)},
             {"details", c.message},
             {"remediation", c.remediation.empty() ? Json(nullptr) : Json(c.remediation)}});
        Json sources = Json::array();
        for (const auto& s : c.sources) sources.push_back(json::provenance(s));
        provenance.push_back({{"name", c.id}, {"sources", std::move(sources)}});
    }
    Json document{{"library", kValidateLibrary},
                  {"spec_path", gate.spec_path},
                  {"result", to_string(gate.result)},
                  {"checks", std::move(checks)}};
    if (strict_contract) return document;
    document["x_rdmi_probe"] = {
        {"schema", kValidateSchemaId},
        {"schema_version", 1},
        {"tool", {{"name", build_info::kToolName}, {"version", build_info::kVersion}}},
        {"run",
         {{"root", run.root},
          {"live", run.live},
          {"generated_at", run.generated_at},
          {"duration_ms", run.duration_ms},
          {"timeout_s", run.timeout_s}}},
        {"provenance", std::move(provenance)}};
    return document;
}

}  // namespace rdmi::json
