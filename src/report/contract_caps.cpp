// The capability-snapshot document.
#include "contract/kinds.hpp"
#include "json/json_common.hpp"
#include "report/contract_common.hpp"
#include "report/contract_documents.hpp"

namespace rdmi::json {

contract::Document caps_document(const contract::ContractFacts& facts) {
    using contract::Json;
    contract::Document doc;
    doc.kind = "capability-snapshot";
    doc.schema_id = std::string(contract::kCapabilitySnapshotSchema);
    doc.body["snapshot_at"] = facts.generated_at;
    doc.source("/snapshot_at", {"derived", "clock (SOURCE_DATE_EPOCH when set)"});
    contract_doca_version(doc, facts.install);
    // The contract allows only host or bluefield here.
    if (facts.host.host_kind == host::HostKind::bluefield) {
        doc.body["host_kind"] = "bluefield";
    } else {
        doc.body["host_kind"] = "host";
        if (facts.host.host_kind == host::HostKind::unknown) {
            doc.fallback("/host_kind", "host-kind probe", "default \"host\"",
                         "host kind undecided; written as host (the snapshot allows no unknown)");
        }
    }
    doc.source("/host_kind", {"derived", host_kind_evidence(facts.host)});
    doc.body["devices"] = Json::array();
    contract_pcie_link(doc, facts);
    if (!facts.capabilities) {
        doc.gap("/devices", Gap{GapReason::error, "capability discovery did not run"});
        return doc;
    }
    const auto& caps = *facts.capabilities;
    doc.source("/devices", caps.source);
    for (const auto& g : caps.gaps) doc.gap("/devices", g);
    std::size_t i = 0;
    for (const auto& device : caps.devices) {
        Json libs = Json::object();
        for (const auto& [library, flags] : device.library_capabilities) libs[library] = flags;
        doc.body["devices"].push_back(
            object({{"pcie_address", device.pcie_address}, {"library_capabilities", libs}}));
        const std::string base = "/devices/" + std::to_string(i++);
        for (const auto& from : device.sources) doc.source(base + "/library_capabilities", from);
    }
    return doc;
}

}  // namespace rdmi::json
