// Human rendering of the devices facts: one line per function, details only when verbose.
#include "report/devices_text.hpp"

#include "report/terminal_text.hpp"
#include "text/fit_width.hpp"
#include "text/text.hpp"

namespace rdmi::text {
namespace {

// Probed names, each escaped for the terminal, joined.
std::string safe_list(const std::vector<std::string>& items, std::string_view sep = ",") {
    std::vector<std::string> shown;
    shown.reserve(items.size());
    for (const auto& item : items) shown.push_back(terminal_safe(item));
    return join(shown, sep);
}

std::string dpa_text(const Sourced<sysfs::DpaCapability>& dpa) {
    if (!dpa.ok()) return "DPA ? (" + terminal_safe(dpa.gap ? dpa.gap->message : "unknown") + ")";
    const std::string how =
        dpa.source.kind == "api" ? terminal_safe(dpa.source.ref) : "inferred from device id";
    return "DPA " + std::string(sysfs::to_string(dpa.value->support)) + " (" + how + ")";
}

// A product name and the DPA's provenance alone take 70 columns: on one line with the
// function, names and port state a row needs about 130.
constexpr std::size_t kOneLineRowWidth = 100;

// One function: on one line from 100 columns when it fits; else what identifies it (function,
// kind, names, port state) on the first line and what it is (product, DPA, verbs) under it.
std::string row(const TextStyle& style, const DeviceSummary& s) {
    std::string names = safe_list(s.rdma_devices);
    if (!s.netdevs.empty()) names += (names.empty() ? "" : "/") + safe_list(s.netdevs);
    const std::string product = s.product.empty() ? "unknown product" : terminal_safe(s.product);
    const std::string identity = terminal_safe(s.function) + "  " + terminal_safe(s.kind);
    const std::string link = (names.empty() ? "-" : names) + "  port " +
                             (s.port_state.empty() ? "-" : terminal_safe(s.port_state));
    std::string what = dpa_text(s.dpa);
    if (!s.verbs_status.empty() && s.verbs_status != "ok")
        what += "  verbs: " + terminal_safe(s.verbs_status);
    const std::string one_line = "  " + identity + "  " + product + "  " + link + "  " + what;
    if (style.width >= kOneLineRowWidth && display_columns(one_line) <= style.width)
        return one_line + "\n";
    return "  " + identity + "  " + link + "\n      " + wrap(style, product + "; " + what, 6, 8) +
           "\n";
}

// NVIDIA functions that are no RDMA NICs: named, so that an unfamiliar device id is not taken
// for a missing NIC, and never counted among the NICs above.
std::string other_functions(const sysfs::DeviceInventory& inventory) {
    std::string out;
    for (const auto& fn : inventory.functions) {
        if (!fn.device.ok()) continue;
        const auto role = sysfs::role_of(*fn.device.value);
        if (role == sysfs::FunctionRole::network) continue;
        out += "  " + terminal_safe(fn.name) + "  " +
               terminal_safe(fn.product.value.value_or("NVIDIA function")) + "  (" +
               (role == sysfs::FunctionRole::management ? "BlueField management interface"
                                                        : "NVIDIA function") +
               ", not an RDMA NIC: not counted)\n";
    }
    return out;
}

std::string verbs_details(const VerbsFacts& verbs) {
    std::string out;
    for (const auto& d : verbs.devices) {
        out += "  verbs " + terminal_safe(d.name);
        if (d.gap) {
            out += ": " + terminal_safe(d.gap->message) + "\n";
            continue;
        }
        out += " (" + terminal_safe(d.query) + "): fw " + terminal_safe(d.fw_ver) + ", atomic " +
               terminal_safe(d.atomic_cap) + "\n    ";
        std::string limits;
        for (const auto& [name, value] : d.limits) {
            if (name.rfind("max_", 0) != 0) continue;
            limits +=
                (limits.empty() ? "" : ", ") + terminal_safe(name) + "=" + std::to_string(value);
        }
        out += limits + "\n    flags: " + safe_list(d.device_cap_flags.names, " ");
        if (d.device_cap_flags.unknown_mask != 0) {
            char mask[32];
            std::snprintf(mask, sizeof mask, " unknown 0x%llx",  // NOLINT
                          static_cast<unsigned long long>(d.device_cap_flags.unknown_mask));
            out += mask;
        }
        out += "\n";
        for (const auto& p : d.ports) {
            out += "    port " + std::to_string(p.port_num) + ": " + terminal_safe(p.state) + " " +
                   terminal_safe(p.link_layer) + " " + terminal_safe(p.active_width) + " " +
                   terminal_safe(p.active_speed) + " mtu " + std::to_string(p.active_mtu) + "/" +
                   std::to_string(p.max_mtu) + "\n";
        }
    }
    return out;
}

std::string doca_details(const DocaCapsFacts& doca) {
    std::string out;
    for (const auto& d : doca.devices) {
        out += "  doca " + terminal_safe(d.pci_address) + " " + terminal_safe(d.ibdev_name) + ":";
        for (const auto& [lib, flags] : d.supported)
            out += " " + terminal_safe(lib) + "[" + safe_list(flags, " ") + "]";
        out += "\n";
    }
    return out;
}

}  // namespace

std::string devices(const TextStyle& style, const DevicesFacts& facts) {
    if (style.verbosity < 0) return {};
    std::string out = "Devices (host kind: " + std::string(host::to_string(facts.host.host_kind));
    if (facts.host.bf_mode)
        out += ", BlueField mode " + std::string(host::to_string(*facts.host.bf_mode));
    out += "):\n";
    if (facts.summary.empty()) out += "  none (no NVIDIA networking device)\n";
    for (const auto& s : facts.summary) out += row(style, s);
    out += other_functions(facts.inventory);
    if (style.verbosity > 0) {
        out += verbs_details(facts.verbs);
        out += doca_details(facts.doca);
        if (!facts.host.bf_mode_command.empty() && !facts.host.bf_mode) {
            out += "  BlueField mode undecided without privilege; would be decided by: " +
                   terminal_safe(facts.host.bf_mode_command) + "\n";
        }
    }
    return out + "\n";
}

}  // namespace rdmi::text
