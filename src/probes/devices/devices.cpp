// join_devices(): the sysfs, verbs and DOCA views joined into one row per function.
#include "probes/devices/devices.hpp"

#include <map>

#include "sysfs/pci_ids.hpp"

namespace rdmi {

std::vector<DeviceSummary> summarize_devices(const sysfs::DeviceInventory& inventory,
                                             const VerbsFacts& verbs, const DocaCapsFacts& doca) {
    std::map<std::string, const DocaDevice*> doca_by_pci;
    for (const auto& d : doca.devices) doca_by_pci.emplace(d.pci_address, &d);
    std::map<std::string, const VerbsDevice*> verbs_by_name;
    for (const auto& d : verbs.devices) verbs_by_name.emplace(d.name, &d);
    const bool verbs_listed = verbs.library.ok() && !verbs.gap;

    std::vector<DeviceSummary> out;
    for (const auto& fn : inventory.functions) {
        // Management interfaces and other NVIDIA functions that are no RDMA NICs are listed
        // apart (devices_text), never counted or judged as NICs.
        if (fn.device.ok() && sysfs::role_of(*fn.device.value) != sysfs::FunctionRole::network)
            continue;
        DeviceSummary row;
        row.function = fn.name;
        row.kind = std::string(sysfs::to_string(fn.kind));
        row.product = fn.product.value.value_or("");
        row.rdma_devices = fn.rdma_devices;
        row.netdevs = fn.netdevs;
        std::string states;
        for (const auto& name : fn.rdma_devices) {
            const auto* rdma = inventory.find_rdma_device(name);
            if (rdma == nullptr) continue;
            for (const auto& port : rdma->ports) {
                const std::string state = port.state.ok() ? port.state.value->name : "?";
                if (state == "ACTIVE") {
                    row.port_active = true;
                    if (row.active_rdma_device.empty()) row.active_rdma_device = name;
                }
                if (!states.empty()) states += "/";
                states += state;
            }
        }
        row.port_state = states;
        row.dpa = fn.dpa;
        // DOCA lists PCI functions; an SF's pci_address is its PF's, so only PFs and VFs join.
        if (fn.kind != sysfs::FunctionKind::sf) {
            auto it = doca_by_pci.find(fn.pci_address);
            if (it != doca_by_pci.end() && it->second->dpa) {
                row.dpa = Sourced<sysfs::DpaCapability>::of(
                    {*it->second->dpa ? sysfs::DpaSupport::yes : sysfs::DpaSupport::no, ""},
                    {"api", "doca_dpa_cap_is_supported"});
            }
        }
        if (verbs_listed) {
            for (const auto& name : fn.rdma_devices) {
                auto it = verbs_by_name.find(name);
                std::string status = "not listed";
                if (it != verbs_by_name.end()) {
                    status =
                        it->second->gap ? std::string(to_string(it->second->gap->reason)) : "ok";
                }
                if (row.verbs_status.empty() || status != "ok") row.verbs_status = status;
            }
        }
        out.push_back(std::move(row));
    }
    return out;
}

DevicesFacts join_devices(const SystemFacts& system, const VerbsFacts& verbs,
                          const DocaCapsFacts& doca, bool live) {
    DevicesFacts facts;
    facts.inventory = system.inventory;
    facts.pci_bus_present = system.pci_bus_present;
    facts.platform = system.platform;
    facts.host = system.host;
    facts.verbs = verbs;
    facts.doca = doca;
    facts.summary = summarize_devices(facts.inventory, facts.verbs, facts.doca);
    facts.checks = device_checks(facts, live);
    return facts;
}

}  // namespace rdmi
