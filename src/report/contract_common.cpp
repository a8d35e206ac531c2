// Shared contract emitter pieces.
#include "report/contract_common.hpp"

#include <string_view>
#include <unordered_map>

#include "build_info.hpp"
#include "contract/kinds.hpp"
#include "json/json_common.hpp"
#include "report/device_scope_json.hpp"

namespace rdmi::json {
namespace {

using contract::Document;

std::string at(const std::string& base, std::string_view field) {
    return base + "/" + std::string(field);
}

/// The function's own netdev: the first that is not a representor of another function.
const sysfs::NetDev* primary_netdev(const sysfs::DeviceInventory& inv, const sysfs::Function& f) {
    for (const auto& name : f.netdevs) {
        const sysfs::NetDev* dev = inv.find_netdev(name);
        if (dev != nullptr && !sysfs::is_representor(*dev)) return dev;
    }
    return nullptr;
}

const sysfs::RdmaPort* first_port(const sysfs::DeviceInventory& inv, const sysfs::Function& f) {
    for (const auto& name : f.rdma_devices) {
        const sysfs::RdmaDevice* dev = inv.find_rdma_device(name);
        if (dev != nullptr && !dev->ports.empty()) return &dev->ports.front();
    }
    return nullptr;
}

void device_name(Document& doc, const std::string& base, const sysfs::DeviceInventory& inv,
                 const sysfs::Function& f, const sysfs::NetDev* net) {
    const std::string ptr = at(base, "name");
    if (net != nullptr) {
        doc.body[Json::json_pointer(ptr)] = net->name;
        doc.source(ptr, {"sysfs", net->sysfs_path});
    } else if (!f.rdma_devices.empty()) {
        doc.body[Json::json_pointer(ptr)] = f.rdma_devices.front();
        const sysfs::RdmaDevice* dev = inv.find_rdma_device(f.rdma_devices.front());
        doc.source(ptr, {"sysfs", dev != nullptr ? dev->sysfs_path : f.device_path});
    } else {
        doc.body[Json::json_pointer(ptr)] = f.name;
        doc.source(ptr, {"sysfs", f.sysfs_path});
    }
}

void device_state(Document& doc, const std::string& base, const sysfs::DeviceInventory& inv,
                  const sysfs::Function& f, const sysfs::NetDev* net) {
    const std::string ptr = at(base, "state");
    auto& slot = doc.body[Json::json_pointer(ptr)];
    if (net != nullptr && net->operstate.ok()) {
        const std::string& op = *net->operstate.value;
        // RFC 2863 operstates: only "up" carries traffic; "unknown"/"dormant"/"testing" say
        // nothing definite, so the rdma port decides those.
        if (op == "up" || op == "down" || op == "lowerlayerdown" || op == "notpresent") {
            slot = op == "up" ? "active" : "down";
            doc.source(ptr, net->operstate.source);
            return;
        }
    }
    if (const sysfs::RdmaPort* port = first_port(inv, f); port != nullptr && port->state.ok()) {
        // IB port states (include/rdma/ib_verbs.h): 4 ACTIVE and 5 ACTIVE_DEFER pass traffic.
        const auto number = port->state.value->number;
        slot = (number == 4 || number == 5) ? "active" : "down";
        doc.source(ptr, port->state.source);
        return;
    }
    slot = "unknown";
    if (net != nullptr) {
        doc.source(ptr, net->operstate.source);
        doc.gap(ptr, net->operstate.gap.value_or(
                         Gap{GapReason::not_found, net->name + ": operstate is \"" +
                                                       net->operstate.value.value_or("") +
                                                       "\" and no rdma port says more"}));
    } else {
        doc.source(ptr, {"sysfs", f.device_path + "/net"});
        doc.gap(ptr, Gap{GapReason::not_found, f.name + ": no netdev and no rdma port"});
    }
}

void device_mtu(Document& doc, const std::string& base, const sysfs::Function& f,
                const sysfs::NetDev* net) {
    const std::string ptr = at(base, "mtu");
    auto& slot = doc.body[Json::json_pointer(ptr)];
    if (net != nullptr && net->mtu.ok()) {
        slot = *net->mtu.value;
        doc.source(ptr, net->mtu.source);
        return;
    }
    // The contract wants a number; 0 is no valid MTU, so it cannot be mistaken for one.
    slot = 0;
    if (net != nullptr) {
        doc.sourced(ptr, net->mtu);
    } else {
        doc.source(ptr, {"sysfs", f.device_path + "/net"});
        doc.gap(ptr, Gap{GapReason::not_found, f.name + ": no netdev, so no MTU (0 written)"});
    }
}

void representor_of(Document& doc, const std::string& base) {
    // A PCI or auxiliary function is never itself a representor: representors are netdevs
    // (eswitch ports) that a function carries, so the field is null for every function.
    doc.body[Json::json_pointer(at(base, "representor_of"))] = nullptr;
    doc.source(at(base, "representor_of"),
               {"derived", "a PCI/auxiliary function is not a representor netdev"});
}

// Why a field is blank, in the three words an agent acts on: there is nothing (absent), the
// question does not apply here (not_applicable), or something is there but could not be read.
std::string blank_kind(GapReason reason) {
    switch (reason) {
        case GapReason::not_found:
        case GapReason::not_installed:
            return "absent";
        case GapReason::not_applicable:
            return "not_applicable";
        default:
            return "unreadable";
    }
}

// Takes the document apart: its pointers and extension members are moved into the result.
Json x_rdmi_probe(Document& doc, const RunFacts& run) {
    // ordered_json's operator[] searches the members: with one pointer per field of every
    // library of a 100,000-module pkg-config directory that was quadratic. The index keeps it
    // linear; a pointer recorded twice keeps its first place and its last source, as before.
    Json provenance_map = Json::object();
    auto& members = provenance_map.get_ref<Json::object_t&>();
    members.reserve(doc.provenance.size());
    std::unordered_map<std::string_view, std::size_t> index;
    index.reserve(doc.provenance.size());
    for (const auto& [pointer, from] : doc.provenance) {
        const auto [it, fresh] = index.emplace(pointer, members.size());
        if (fresh) {
            members.emplace_back(pointer, provenance(from));
        } else {
            (members.begin() + static_cast<std::ptrdiff_t>(it->second))->second = provenance(from);
        }
    }
    Json gaps = Json::array();
    for (const auto& g : doc.gaps) {
        gaps.push_back(object({{"pointer", g.pointer},
                               {"reason", to_string(g.gap.reason)},
                               {"blank", blank_kind(g.gap.reason)},
                               {"message", g.gap.message}}));
    }
    Json fallbacks = Json::array();
    for (const auto& f : doc.fallbacks) {
        fallbacks.push_back(object({{"pointer", f.pointer},
                                    {"primary", f.primary},
                                    {"used", f.used.empty() ? Json(nullptr) : Json(f.used)},
                                    {"note", f.note}}));
    }
    Json out = object({{"tool", build_info::kToolName},
                       {"tool_version", build_info::kVersion},
                       {"schema", doc.schema_id},
                       {"schema_version", contract::kContractSchemaVersion},
                       {"document", doc.kind},
                       {"generated_at", run.generated_at},
                       {"root", run.root},
                       {"live", run.live},
                       {"provenance", std::move(provenance_map)},
                       {"gaps", std::move(gaps)},
                       {"fallbacks", std::move(fallbacks)}},
                      doc.extension.size());
    // Room was made for every extension member: growing the object would deep-copy the
    // provenance map (one member per field of every library).
    auto& out_members = out.get_ref<Json::object_t&>();
    for (auto& [key, value] : doc.extension.get_ref<Json::object_t&>()) {
        if (auto it = out_members.find(key); it != out_members.end()) {
            it->second = std::move(value);
        } else {
            out_members.emplace_back(key, std::move(value));
        }
    }
    return out;
}

}  // namespace

void contract_devices(Document& doc, const std::string& pointer,
                      const contract::ContractFacts& facts, bool with_name) {
    const auto& inv = facts.devices;
    doc.body[Json::json_pointer(pointer)] = Json::array();
    doc.source(pointer, {"sysfs", "/sys/bus/pci/devices, /sys/bus/auxiliary/devices"});
    for (const auto& g : inv.gaps) doc.gap(pointer, g);
    std::size_t index = 0;
    for (const auto& f : inv.functions) {
        const std::string base = pointer + "/" + std::to_string(index++);
        const sysfs::NetDev* net = primary_netdev(inv, f);
        doc.body[Json::json_pointer(base)] = Json::object();
        doc.body[Json::json_pointer(at(base, "pcie_address"))] = f.pci_address;
        doc.source(at(base, "pcie_address"), {"sysfs", f.sysfs_path});
        doc.body[Json::json_pointer(at(base, "kind"))] = sysfs::to_string(f.kind);
        doc.source(at(base, "kind"), {"sysfs", f.sysfs_path});
        if (with_name) {
            // doca-env's order: name, representor_of, state, mtu.
            device_name(doc, base, inv, f, net);
            representor_of(doc, base);
            device_state(doc, base, inv, f, net);
            device_mtu(doc, base, f, net);
        } else {
            // collect-*-state's order: state, mtu, representor_of.
            device_state(doc, base, inv, f, net);
            device_mtu(doc, base, f, net);
            representor_of(doc, base);
        }
    }
}

void contract_string(Document& doc, const std::string& pointer, const Sourced<std::string>& value) {
    doc.body[Json::json_pointer(pointer)] = value.value.value_or("");
    doc.sourced(pointer, value);
}

void contract_doca_version(Document& doc, const InstallFacts& install) {
    const auto resolved = contract::resolve_doca_version(install);
    contract_string(doc, "/doca_version", resolved.version);
    if (resolved.from_fallback) {
        std::string why;
        for (const auto& g : resolved.skipped) why += (why.empty() ? "" : "; ") + g.message;
        doc.fallback("/doca_version", "doca_caps --version",
                     resolved.version.ok() ? resolved.version.source.ref : "",
                     resolved.version.ok() ? "DOCA version from " + resolved.version.source.ref +
                                                 " instead of doca_caps --version (" + why + ")"
                                           : "no DOCA version from any source (" + why + ")");
    }
}

void contract_pcie_link(Document& doc, const contract::ContractFacts& facts) {
    if (facts.pcie_link) doc.extension["pcie_link"] = pcie_link_json(*facts.pcie_link);
}

void contract_device_scope(Document& doc, const contract::ContractFacts& facts) {
    if (facts.device_scope) doc.extension["device_scope"] = device_scope_json(*facts.device_scope);
}

Json contract_json(Document doc, const RunFacts& run, bool strict) {
    // The body is moved, not copied; it was made with room for x_rdmi_probe (document.hpp),
    // and an ordered_json object that grows deep-copies every member it holds.
    Json out = std::move(doc.body);
    if (!strict) {
        auto& members = out.get_ref<Json::object_t&>();
        Json extension = x_rdmi_probe(doc, run);
        if (auto it = members.find("x_rdmi_probe"); it != members.end()) {
            it->second = std::move(extension);
        } else {
            members.emplace_back("x_rdmi_probe", std::move(extension));
        }
    }
    return out;
}

}  // namespace rdmi::json
