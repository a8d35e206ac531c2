// poll_inventory(): the listings and port states a wait's poll reads again, compared with and
// written into the inventory of the last whole scan.
#include "sysfs/inventory_poll.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "sysfs/ib_attrs.hpp"
#include "sysfs/pci_attrs.hpp"
#include "sysfs/pci_ids.hpp"
#include "sysfs/scan_steps.hpp"

namespace rdmi::sysfs {
namespace {

constexpr std::string_view kPollPciDevices = "/sys/bus/pci/devices";
constexpr std::string_view kPollAuxDevices = "/sys/bus/auxiliary/devices";
constexpr std::string_view kPollRdmaClass = "/sys/class/infiniband";

// The entry names of `path`, sorted; an empty list where the directory does not exist, as the
// scan takes it (no SFs, no rdma devices, no netdevs); nullopt for any other failure.
std::optional<std::vector<std::string>> names_in(const Fs& fs, std::string_view path) {
    auto entries = fs.list_dir(path);
    if (!entries) {
        if (entries.gap().reason == GapReason::not_found) return std::vector<std::string>{};
        return std::nullopt;
    }
    std::vector<std::string> names;
    names.reserve(entries->size());
    for (auto& entry : *entries) names.push_back(std::move(entry.name));
    std::sort(names.begin(), names.end());
    return names;
}

// Whether a PCI entry the last scan did not hold is still no NVIDIA function: its vendor
// reads and is another's. One that does not read may be NVIDIA's, as in the scan.
bool foreign_vendor(const Fs& fs, const std::string& name) {
    auto bytes = fs.read_file(join_path(join_path(kPollPciDevices, name), "vendor"), 4096);
    if (!bytes) return false;
    auto vendor = parse_pci_id(*bytes);
    return vendor.ok() && *vendor != kMellanoxVendorId;
}

// The PCI listing holds exactly the inventory's PFs and VFs, besides entries known (or now
// read) to be other vendors'.
bool same_pci_functions(const Fs& fs, const DeviceInventory& inventory,
                        InventoryPollMemory& memory) {
    auto listed = fs.list_dir(kPollPciDevices);
    if (!listed) return false;
    std::set<std::string, std::less<>> foreign;
    std::size_t ours = 0;
    for (const auto& entry : *listed) {
        const auto* fn = inventory.find_function(entry.name);
        if (fn != nullptr && fn->kind != FunctionKind::sf) {
            ++ours;
        } else if (memory.foreign_pci.contains(entry.name) ||
                   (is_pci_address(entry.name) && foreign_vendor(fs, entry.name))) {
            foreign.insert(entry.name);
        } else {
            return false;  // a function the inventory lacks, or an entry the scan would flag
        }
    }
    memory.foreign_pci = std::move(foreign);
    const auto pci = std::count_if(inventory.functions.begin(), inventory.functions.end(),
                                   [](const Function& fn) { return fn.kind != FunctionKind::sf; });
    return ours == static_cast<std::size_t>(pci);
}

bool same_subfunctions(const Fs& fs, const DeviceInventory& inventory) {
    auto listed = names_in(fs, kPollAuxDevices);
    if (!listed) return false;
    std::vector<std::string> now;
    for (auto& name : *listed) {
        if (is_sf_name(name)) now.push_back(std::move(name));
    }
    std::vector<std::string> before;
    for (const auto& fn : inventory.functions) {
        if (fn.kind == FunctionKind::sf) before.push_back(fn.name);
    }
    return now == before;  // both sorted: SF names sort among themselves as the scan's
}

bool same_rdma_devices(const Fs& fs, const DeviceInventory& inventory) {
    auto listed = names_in(fs, kPollRdmaClass);
    if (!listed || listed->size() != inventory.rdma_devices.size()) return false;
    for (std::size_t i = 0; i < listed->size(); ++i) {
        if ((*listed)[i] != inventory.rdma_devices[i].name) return false;
    }
    return true;
}

// Each rdma device still belongs to the function the last scan joined it to (its `device` link
// leads to that function's directory, or to none of the inventory's), and still has the ports
// the scan found: a driver rebound between polls can leave the listing as it was and move a
// name to another function, or register a device again with other ports.
bool same_rdma_shapes(const Fs& fs, const DeviceInventory& inventory) {
    for (const auto& device : inventory.rdma_devices) {
        // A link that leads nowhere now, as when the scan read it, still names no function.
        auto parent = fs.real_path(join_path(device.sysfs_path, "device"));
        if (!parent && parent.gap().reason != GapReason::not_found) return false;
        const auto owner =
            !parent ? inventory.functions.end()
                    : std::find_if(inventory.functions.begin(), inventory.functions.end(),
                                   [&](const Function& fn) { return fn.device_path == *parent; });
        if (owner == inventory.functions.end()) {
            if (device.function.ok()) return false;
        } else if (!device.function.ok() || *device.function.value != owner->name) {
            return false;
        }
        auto listed = fs.list_dir(join_path(device.sysfs_path, "ports"));
        if (!listed) return false;
        std::vector<std::uint32_t> numbers;
        for (const auto& entry : *listed) {
            if (auto n = numbered_entry(entry.name)) numbers.push_back(*n);
        }
        std::sort(numbers.begin(), numbers.end());
        if (numbers.size() != device.ports.size()) return false;
        for (std::size_t i = 0; i < numbers.size(); ++i) {
            if (numbers[i] != device.ports[i].number) return false;
        }
    }
    return true;
}

bool same_netdevs(const Fs& fs, const DeviceInventory& inventory) {
    for (const auto& fn : inventory.functions) {
        auto listed = names_in(fs, join_path(fn.device_path, "net"));
        if (!listed || *listed != fn.netdevs) return false;
    }
    return true;
}

// Every port's state, read through the class path the scan shows (the kernel walks the link).
bool read_port_states(const Fs& fs, DeviceInventory& inventory) {
    for (auto& device : inventory.rdma_devices) {
        const std::string ports = join_path(device.sysfs_path, "ports");
        for (auto& port : device.ports) {
            auto bytes = fs.read_file(
                join_path(join_path(ports, std::to_string(port.number)), "state"), 4096);
            if (!bytes) return false;
            auto state = parse_numbered_name(*bytes);
            if (!state) return false;
            port.state.value = std::move(state).value();
            port.state.gap.reset();
        }
    }
    return true;
}

}  // namespace

bool inventory_pollable(const DeviceInventory& inventory) {
    if (!inventory.gaps.empty() || !inventory.unexamined_pci.empty() || inventory.rdma_class_gap)
        return false;
    for (const auto& fn : inventory.functions) {
        if (!fn.gaps.empty()) return false;
        if (fn.kind != FunctionKind::sf && !fn.device.ok()) return false;
        if (fn.kind != FunctionKind::pf && !fn.parent_pf.ok()) return false;
    }
    for (const auto& device : inventory.rdma_devices) {
        if (!device.gaps.empty()) return false;
        // An rdma device of another vendor's function is that for good; one whose `device`
        // link did not resolve might resolve later.
        if (!device.function.ok() && device.function.gap->reason != GapReason::not_found)
            return false;
    }
    return true;
}

bool poll_inventory(const Fs& fs, DeviceInventory& inventory, InventoryPollMemory& memory) {
    return same_pci_functions(fs, inventory, memory) && same_subfunctions(fs, inventory) &&
           same_rdma_devices(fs, inventory) && same_rdma_shapes(fs, inventory) &&
           same_netdevs(fs, inventory) && read_port_states(fs, inventory);
}

}  // namespace rdmi::sysfs
