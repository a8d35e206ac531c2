// scan_devices(): runs the scan steps in dependency order and indexes the results.
#include "sysfs/devices.hpp"

#include <algorithm>

#include "sysfs/scan_steps.hpp"

namespace rdmi::sysfs {
namespace {

template <typename T>
const T* find_by_name(const std::vector<T>& items, std::string_view name) {
    auto it = std::lower_bound(items.begin(), items.end(), name,
                               [](const T& item, std::string_view key) { return item.name < key; });
    return (it != items.end() && it->name == name) ? &*it : nullptr;
}

}  // namespace

std::string_view to_string(FunctionKind kind) {
    switch (kind) {
        case FunctionKind::pf:
            return "PF";
        case FunctionKind::vf:
            return "VF";
        case FunctionKind::sf:
            return "SF";
    }
    return "PF";
}

const Function* DeviceInventory::find_function(std::string_view name) const {
    return find_by_name(functions, name);
}

const RdmaDevice* DeviceInventory::find_rdma_device(std::string_view name) const {
    return find_by_name(rdma_devices, name);
}

const NetDev* DeviceInventory::find_netdev(std::string_view name) const {
    return find_by_name(netdevs, name);
}

bool is_representor(const NetDev& netdev) {
    return netdev.port_name.has_value() && netdev.port_name->flavour != PortFlavour::physical;
}

DeviceInventory scan_devices(const Fs& fs, GidTables gid_tables) {
    DeviceInventory inventory;
    scan_pci_functions(fs, inventory);
    scan_subfunctions(fs, inventory);
    // PCI addresses sort before "mlx5_core.sf.N" names, so one order serves both lookups.
    std::sort(inventory.functions.begin(), inventory.functions.end(),
              [](const Function& a, const Function& b) { return a.name < b.name; });
    infer_dpa(inventory);
    scan_netdevs(fs, inventory);
    FunctionIndex by_path;
    for (std::size_t i = 0; i < inventory.functions.size(); ++i)
        by_path.emplace(inventory.functions[i].device_path, i);
    scan_rdma_devices(fs, by_path, gid_tables, inventory);
    std::sort(inventory.rdma_devices.begin(), inventory.rdma_devices.end(),
              [](const RdmaDevice& a, const RdmaDevice& b) { return a.name < b.name; });
    for (auto& fn : inventory.functions) {
        std::sort(fn.netdevs.begin(), fn.netdevs.end());
        std::sort(fn.rdma_devices.begin(), fn.rdma_devices.end());
    }
    return inventory;
}

}  // namespace rdmi::sysfs
