// Resolving -d/--device names against the sysfs scan, and narrowing the facts to them.
#include "model/device_scope.hpp"

#include <algorithm>
#include <cctype>

#include "text/text.hpp"

namespace rdmi {
namespace {

std::string lowered(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool contains(const std::vector<std::string>& items, std::string_view item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

// "0000:08:00.0" is named by itself and by "08:00.0" (lspci's form without the domain), in
// either case. Only the domain may be left out: "00.0" names no function, though it ends
// every function 0's address.
bool names_address(const std::string& address, const std::string& name) {
    if (address.empty()) return false;
    const std::string a = lowered(address);
    const std::string n = lowered(name);
    if (a == n) return true;
    const auto domain_end = a.find(':');
    return domain_end != std::string::npos && a.compare(domain_end + 1, std::string::npos, n) == 0;
}

std::string present_label(const sysfs::Function& function) {
    std::vector<std::string> names = function.rdma_devices;
    names.insert(names.end(), function.netdevs.begin(), function.netdevs.end());
    return names.empty() ? function.name : function.name + " (" + join(names) + ")";
}

template <typename T, typename Keep>
void keep_if(std::vector<T>& items, Keep keep) {
    items.erase(std::remove_if(items.begin(), items.end(), [&](const T& t) { return !keep(t); }),
                items.end());
}

}  // namespace

bool names_function(const sysfs::Function& function, const std::string& name) {
    if (name.empty()) return false;
    if (function.name == name) return true;
    if (function.kind != sysfs::FunctionKind::sf && names_address(function.name, name)) return true;
    return contains(function.rdma_devices, name) || contains(function.netdevs, name);
}

DeviceScopeResolution resolve_device_scope(const sysfs::DeviceInventory& inventory,
                                           const std::vector<std::string>& names) {
    DeviceScopeResolution out;
    for (const auto& name : names) {
        if (!contains(out.scope.requested, name)) out.scope.requested.push_back(name);
    }
    for (const auto& name : out.scope.requested) {
        if (std::none_of(inventory.functions.begin(), inventory.functions.end(),
                         [&](const sysfs::Function& f) { return names_function(f, name); }))
            out.unknown.push_back(name);
    }
    for (const auto& function : inventory.functions) {
        out.present.push_back(present_label(function));
        const bool named =
            std::any_of(out.scope.requested.begin(), out.scope.requested.end(),
                        [&](const std::string& name) { return names_function(function, name); });
        if (!named) {
            out.scope.not_examined.push_back(
                {function.name, function.rdma_devices, function.netdevs});
            continue;
        }
        out.scope.functions.push_back(function.name);
        out.scope.rdma_devices.insert(out.scope.rdma_devices.end(), function.rdma_devices.begin(),
                                      function.rdma_devices.end());
        if (!function.pci_address.empty() &&
            !contains(out.scope.pci_addresses, function.pci_address))
            out.scope.pci_addresses.push_back(function.pci_address);
    }
    return out;
}

void narrow_to_scope(SystemFacts& system, const DeviceScope& scope) {
    auto& inventory = system.inventory;
    keep_if(inventory.functions,
            [&](const sysfs::Function& f) { return contains(scope.functions, f.name); });
    // An rdma device whose owner did not read belongs to no named function.
    keep_if(inventory.rdma_devices,
            [&](const sysfs::RdmaDevice& d) { return contains(scope.rdma_devices, d.name); });
    keep_if(inventory.netdevs,
            [&](const sysfs::NetDev& n) { return contains(scope.functions, n.function); });
}

void narrow_to_scope(VerbsFacts& verbs, const DeviceScope& scope) {
    keep_if(verbs.devices,
            [&](const VerbsDevice& d) { return contains(scope.rdma_devices, d.name); });
}

void narrow_to_scope(DocaCapsFacts& doca, const DeviceScope& scope) {
    keep_if(doca.devices, [&](const DocaDevice& d) {
        return d.ibdev_name.empty() ? contains(scope.pci_addresses, d.pci_address)
                                    : contains(scope.rdma_devices, d.ibdev_name);
    });
}

}  // namespace rdmi
