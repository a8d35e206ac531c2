// The collect-host-state / collect-dpu-state document, and the bf_mode field it shares with
// doca-env.
#include <set>

#include "contract/kinds.hpp"
#include "report/contract_common.hpp"
#include "report/contract_documents.hpp"

namespace rdmi::json {
namespace {

using contract::Document;
using contract::Json;

std::string evidence_text(const std::vector<host::Evidence>& evidence) {
    std::string out;
    for (const auto& e : evidence) out += (out.empty() ? "" : "; ") + e.fact;
    return out;
}

void side(Document& doc, const contract::ContractFacts& facts, std::optional<Side> forced) {
    if (forced) {
        const std::string side = *forced == Side::dpu ? "dpu" : "host";
        doc.body["side"] = side;
        const auto kind = facts.host.host_kind;
        const bool against = (*forced == Side::dpu && kind == host::HostKind::host) ||
                             (*forced == Side::host && kind == host::HostKind::bluefield);
        if (!against) {
            doc.source("/side", {"derived", "forced (--side or the helper name)"});
            return;
        }
        // Honoured, as asked; but a document saying "dpu" about a host (doca-collect-dpu-state
        // run on the host) would be diffed against the real DPU side: it says so, with why.
        doc.source("/side", {"derived", "forced (--side or the helper name), against the " +
                                            host_kind_evidence(facts.host)});
        doc.fallback("/side", "host-kind probe", "forced side " + side,
                     "side forced to " + side + " although the host-kind probe says " +
                         std::string(host::to_string(kind)));
        return;
    }
    switch (facts.host.host_kind) {
        case host::HostKind::bluefield:
            doc.body["side"] = "dpu";
            doc.source("/side", {"derived", host_kind_evidence(facts.host)});
            break;
        case host::HostKind::host:
            doc.body["side"] = "host";
            doc.source("/side", {"derived", host_kind_evidence(facts.host)});
            break;
        case host::HostKind::unknown:
            doc.body["side"] = "host";
            doc.source("/side", {"derived", "default: the host kind is unknown"});
            doc.fallback("/side", "host-kind probe", "default \"host\"",
                         "side written as host because the host kind could not be decided "
                         "(use --side)");
            break;
    }
}

void firmware(Document& doc, const contract::ContractFacts& facts) {
    // The contract's source is `flint -d <pcie> q`, which needs privilege; sysfs fw_ver has the
    // same running firmware version without it (rules 4 of the contract).
    std::string first_pcie;
    for (const auto& f : facts.devices.functions) {
        if (f.kind == sysfs::FunctionKind::pf) {
            first_pcie = f.pci_address;
            break;
        }
    }
    const std::string flint =
        "flint -d " + (first_pcie.empty() ? std::string("<pcie>") : first_pcie) + " q";
    std::set<std::string> versions;
    const sysfs::RdmaDevice* chosen = nullptr;
    for (const auto& dev : facts.devices.rdma_devices) {
        if (!dev.fw_ver.ok()) continue;
        versions.insert(*dev.fw_ver.value);
        if (chosen == nullptr) chosen = &dev;
    }
    if (chosen == nullptr) {
        doc.body["firmware_version"] = "";
        doc.source("/firmware_version", {"sysfs", "/sys/class/infiniband/*/fw_ver"});
        doc.gap("/firmware_version",
                Gap{GapReason::not_found,
                    "no rdma device with a readable fw_ver; " + flint + " is privileged, not run"});
        doc.fallback("/firmware_version", flint, "",
                     "firmware version unknown: no sysfs fw_ver, and " + flint +
                         " (privileged) was not run");
        return;
    }
    doc.body["firmware_version"] = *chosen->fw_ver.value;
    doc.source("/firmware_version", chosen->fw_ver.source);
    std::string note = "firmware version from sysfs " + chosen->fw_ver.source.ref + " instead of " +
                       flint + " (privileged, not run)";
    if (versions.size() > 1) note += "; devices disagree, first by name shown";
    doc.fallback("/firmware_version", flint, "sysfs fw_ver", note);
}

void modules(Document& doc, const host::PlatformFacts& p) {
    doc.body["mlx5_modules"] = p.mlx5_modules.value.value_or(std::vector<std::string>{});
    doc.sourced("/mlx5_modules", p.mlx5_modules);
}

}  // namespace

std::string host_kind_evidence(const host::HostClassification& host) {
    std::string text = evidence_text(host.host_kind_evidence);
    return "host kind " + std::string(host::to_string(host.host_kind)) +
           (text.empty() ? "" : ": " + text);
}

void contract_bf_mode(Document& doc, const contract::ContractFacts& facts) {
    const auto& host = facts.host;
    const std::string command = host.bf_mode_command.empty()
                                    ? "mlxconfig -d <pcie> q INTERNAL_CPU_MODEL"
                                    : host.bf_mode_command;
    if (host.bf_mode) {
        doc.body["bf_mode"] = host::to_string(*host.bf_mode);
        doc.source("/bf_mode",
                   {"derived", "bf_mode " + std::string(host::to_string(*host.bf_mode)) + ": " +
                                   evidence_text(host.bf_mode_evidence)});
        doc.fallback("/bf_mode", command, "sysfs: " + evidence_text(host.bf_mode_evidence),
                     "BlueField mode inferred from sysfs instead of `" + command +
                         "` (privileged, not run)");
        return;
    }
    doc.body["bf_mode"] = nullptr;
    doc.source("/bf_mode", {"derived", evidence_text(host.bf_mode_evidence)});
    if (host.bf_mode_gap) doc.gap("/bf_mode", *host.bf_mode_gap);
    if (host.host_kind == host::HostKind::bluefield || !host.bf_mode_command.empty()) {
        doc.fallback("/bf_mode", command, "",
                     "BlueField mode undecidable without `" + command +
                         "` (privileged; rdmi-probe never runs it)");
    }
}

Document state_document(const contract::ContractFacts& facts, std::optional<Side> forced) {
    Document doc;
    doc.schema_id = std::string(contract::kCollectStateSchema);
    side(doc, facts, forced);
    doc.kind = doc.body["side"] == "dpu" ? "collect-dpu-state" : "collect-host-state";
    contract_doca_version(doc, facts.install);
    firmware(doc, facts);
    contract_string(doc, "/kernel_version", facts.platform.kernel_release);
    modules(doc, facts.platform);
    contract_bf_mode(doc, facts);
    contract_devices(doc, "/devices", facts, false);
    return doc;
}

}  // namespace rdmi::json
