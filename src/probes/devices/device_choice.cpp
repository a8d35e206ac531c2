// recommend_device(): qualify every function, rank the qualified, explain a miss.
#include "probes/devices/device_choice.hpp"

#include <algorithm>
#include <vector>

namespace rdmi {
namespace {

int kind_rank(const std::string& kind) {
    if (kind == "PF") return 0;
    if (kind == "SF") return 1;
    return 2;
}

// "Lowest name": shorter first, then bytewise. PCI addresses are fixed-width lowercase hex, so
// this is their numeric order; SF names differ only in their index, so mlx5_core.sf.2 comes
// before mlx5_core.sf.10 (plain string order would put sf.10 first).
bool lower_name(const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

std::string label(const DeviceSummary& row) {
    std::string out = row.function;
    if (!row.product.empty()) out += " (" + row.product + ")";
    return out;
}

// What keeps one function from qualifying; "" when it qualifies.
std::string shortfall(const DeviceSummary& row) {
    std::vector<std::string> missing;
    const bool dpa = row.dpa.value && row.dpa.value->support == sysfs::DpaSupport::yes;
    if (!dpa) {
        missing.push_back(row.dpa.value && row.dpa.value->support == sysfs::DpaSupport::no
                              ? "no DPA"
                              : "DPA unknown");
    }
    if (row.rdma_devices.empty()) {
        missing.push_back("no RDMA device (mlx5_ib not bound)");
    } else if (!row.port_active) {
        missing.push_back("no ACTIVE port (" +
                          (row.port_state.empty() ? std::string("no port state") : row.port_state) +
                          ")");
    }
    std::string out;
    for (const auto& m : missing) out += (out.empty() ? "" : ", ") + m;
    return out;
}

}  // namespace

DeviceChoice recommend_device(const DevicesFacts& facts) {
    DeviceChoice choice;
    if (!facts.pci_bus_present) {
        choice.reason = "no /sys/bus/pci/devices here: no device could be examined";
        return choice;
    }
    std::vector<const DeviceSummary*> qualified;
    std::string misses;
    std::size_t missed = 0;
    constexpr std::size_t kNamed = 8;  // one line even on a host with hundreds of VFs
    for (const auto& row : facts.summary) {
        const std::string why = shortfall(row);
        if (why.empty()) {
            qualified.push_back(&row);
        } else if (++missed <= kNamed) {
            misses += (misses.empty() ? "" : "; ") + label(row) + ": " + why;
        }
    }
    if (missed > kNamed) misses += "; and " + std::to_string(missed - kNamed) + " more";
    if (qualified.empty()) {
        choice.reason = facts.summary.empty() ? "no NVIDIA RDMA/BlueField function found"
                                              : "none qualifies: " + misses;
        return choice;
    }
    std::stable_sort(qualified.begin(), qualified.end(),
                     [](const DeviceSummary* a, const DeviceSummary* b) {
                         const int ka = kind_rank(a->kind);
                         const int kb = kind_rank(b->kind);
                         return ka != kb ? ka < kb : lower_name(a->function, b->function);
                     });
    const DeviceSummary& best = *qualified.front();
    choice.function = best.function;
    // The rdma device whose port is up, not merely the first listed: a function can carry more
    // than one, and the reason must be true of the one named.
    choice.rdma_device =
        best.active_rdma_device.empty() ? best.rdma_devices.front() : best.active_rdma_device;
    choice.reason =
        label(best) + " " + best.kind + ": DPA supported, " + choice.rdma_device + " port ACTIVE";
    if (qualified.size() > 1) {
        choice.reason += "; " + std::to_string(qualified.size() - 1) +
                         " other function(s) also qualify, ranked after it by the rule";
    }
    return choice;
}

}  // namespace rdmi
