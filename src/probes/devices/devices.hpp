// The devices probe: sysfs inventory, platform and host kind, joined with what libibverbs and
// DOCA say, one summary row per function, and the checks an engineer acts on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "host/host_kind.hpp"
#include "host/platform.hpp"
#include "probes/doca_caps/doca_caps.hpp"
#include "probes/system.hpp"
#include "probes/verbs/verbs.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi {

/// The one-line view of one PCI or scalable function.
struct DeviceSummary {
    std::string function;  ///< PCI address or mlx5_core.sf.N
    std::string kind;      ///< "PF", "VF", "SF"
    std::string product;   ///< "" when the id is not in the table
    std::vector<std::string> rdma_devices;
    std::vector<std::string> netdevs;
    std::string
        port_state;  ///< "ACTIVE", "DOWN", "INIT", "ACTIVE/DOWN" (per port), "" without rdma
    bool port_active = false;  ///< at least one port ACTIVE
    /// The first of rdma_devices with an ACTIVE port ("" when none): the device a workload on
    /// this function would use, which need not be the first one listed.
    std::string active_rdma_device;
    /// Final DPA answer: DOCA's doca_dpa_cap_is_supported when DOCA listed the function,
    /// else the sysfs inference from the device id.
    Sourced<sysfs::DpaCapability> dpa;
    std::string verbs_status;  ///< "ok", "timeout", "error", "not listed", "" (not queried)
};

/// Everything the devices probe collected.
struct DevicesFacts {
    sysfs::DeviceInventory inventory;
    host::PlatformFacts platform;
    host::HostClassification host;
    VerbsFacts verbs;
    DocaCapsFacts doca;
    std::vector<DeviceSummary> summary;  ///< inventory order
    /// False when the root has no /sys/bus/pci/devices at all (e.g. a bare DOCA install tree):
    /// then there is nothing to judge and the verdict is info, not fail.
    bool pci_bus_present = true;
    std::vector<Check> checks;
};

/// Builds the summary rows and joins DOCA's devices (by PCI address) and the verbs devices (by
/// ibdev name) onto the sysfs functions. Pure.
std::vector<DeviceSummary> summarize_devices(const sysfs::DeviceInventory& inventory,
                                             const VerbsFacts& verbs, const DocaCapsFacts& doca);

/// The checks: rdmi-dpa-device (verdict), driver-mlx5-core, driver-mlx5-ib, uverbs-access,
/// verbs-devices, doca-devices, hugepages. Pure.
std::vector<Check> device_checks(const DevicesFacts& facts, bool live);

/// The devices probe: joins the system scan with the verbs and DOCA views (summary rows and
/// checks). Reads nothing itself; `live` is the probe context's.
DevicesFacts join_devices(const SystemFacts& system, const VerbsFacts& verbs,
                          const DocaCapsFacts& doca, bool live);

}  // namespace rdmi
