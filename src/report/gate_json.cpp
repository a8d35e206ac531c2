// The `check` document. Only the contract's four fields in the body; what rdmi-probe knows
// beyond them (where each verdict came from) goes to x_rdmi_probe through the shared writer.
#include "report/gate_json.hpp"

#include <string>

#include "contract/kinds.hpp"
#include "json/json_common.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi::json {

contract::Document check_document(const gate::GateReport& gate) {
    contract::Document doc;
    doc.kind = "validate-before-commit";
    doc.schema_id = std::string(contract::kValidateSchema);
    contract::Json checks = contract::Json::array();
    for (std::size_t i = 0; i < gate.checks.size(); ++i) {
        const auto& c = gate.checks[i];
        // The contract has no warn: it is written as pass (fail under --fail-on-warn) and the
        // details say it was a warning.
        checks.push_back(
            object({{"name", c.id.str()},
                    {"status", to_string(gate::contract_status(c.status, gate.fail_on_warn))},
                    {"details", c.status == Status::warn ? "warning: " + c.message : c.message},
                    {"remediation", c.remediation.empty() ? contract::Json(nullptr)
                                                          : contract::Json(c.remediation)}}));
        if (!c.sources.empty()) doc.source("/checks/" + std::to_string(i), c.sources.front());
    }
    if (!gate.waived_sources.empty()) {
        contract::Json waived = contract::Json::array();
        for (const auto& name : gate.waived_sources) {
            const WaivableSource* entry = find_waivable(name);
            waived.push_back(object(
                {{"name", name},
                 {"source", entry == nullptr ? std::string() : std::string(entry->source)}}));
        }
        doc.extension["waived_sources"] = std::move(waived);
    }
    if (gate.wait) {
        // Which evaluation the verdict is, and how long the host took to get there (or was
        // given): a boot-time unit's journal can tell a slow link from a missing one.
        doc.extension["wait"] = object({{"wait_s", gate.wait->wait_s},
                                        {"interval_s", gate.wait->interval_s},
                                        {"evaluations", gate.wait->evaluations},
                                        {"waited_s", gate.wait->waited_s}});
    }
    doc.body = object({{"library", kValidateLibrary},
                       {"spec_path", gate.spec_path},
                       {"result", to_string(gate.result)},
                       {"checks", std::move(checks)}});
    return doc;
}

contract::Json check_json(const gate::GateReport& gate, const RunFacts& run, bool strict_contract) {
    return contract_json(check_document(gate), run, strict_contract);
}

}  // namespace rdmi::json
