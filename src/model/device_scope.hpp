// `-d/--device`: which functions a run judges. The names a user gives are resolved against the
// sysfs scan once; the device-bearing facts are then narrowed to the named functions before
// the probes that judge devices and ports read them, so every such check judges only those.
#pragma once

#include <string>
#include <vector>

#include "probes/doca_caps/doca_caps.hpp"
#include "probes/system.hpp"
#include "probes/verbs/verbs.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi {

/// A function the scan found that the run did not examine.
struct UnexaminedFunction {
    std::string function;                   ///< PCI address, or the SF's name
    std::vector<std::string> rdma_devices;  ///< its ibdevs
    std::vector<std::string> netdevs;       ///< its netdevs
};

/// The functions a run was scoped to, and those it left out.
struct DeviceScope {
    std::vector<std::string> requested;            ///< the names as given, in order, deduplicated
    std::vector<std::string> functions;            ///< the named functions, in inventory order
    std::vector<std::string> rdma_devices;         ///< their ibdevs
    std::vector<std::string> pci_addresses;        ///< their PCI addresses (an SF's: its PF's)
    std::vector<UnexaminedFunction> not_examined;  ///< every other function, inventory order
};

/// What resolving the names gave: a scope, or the names that name no function.
struct DeviceScopeResolution {
    DeviceScope scope;
    std::vector<std::string> unknown;  ///< names that match no function (empty: resolved)
    /// Every function of the scan as "0000:08:00.0 (mlx5_0, ens1f0)": what a user may name.
    std::vector<std::string> present;
};

/// True when `name` names `function`: its PCI address (any case, with or without the
/// "0000:" domain), its SF name, one of its rdma devices or one of its netdevs.
[[nodiscard]] bool names_function(const sysfs::Function& function, const std::string& name);

/// Resolves `names` against the scan. Pure.
[[nodiscard]] DeviceScopeResolution resolve_device_scope(const sysfs::DeviceInventory& inventory,
                                                         const std::vector<std::string>& names);

/// Keeps only the scope's functions, their rdma devices and netdevs in the scan.
void narrow_to_scope(SystemFacts& system, const DeviceScope& scope);

/// Keeps only the verbs devices of the scope's rdma devices.
void narrow_to_scope(VerbsFacts& verbs, const DeviceScope& scope);

/// Keeps only DOCA's devices of the scope: by ibdev when DOCA names one, else by PCI address.
void narrow_to_scope(DocaCapsFacts& doca, const DeviceScope& scope);

}  // namespace rdmi
