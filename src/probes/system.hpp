// The system probe: the sysfs inventory of NVIDIA functions, the platform (kernel, drivers,
// hugepages, BlueField markers) and the host classification drawn from both.
#pragma once

#include "context/context.hpp"
#include "host/host_kind.hpp"
#include "host/platform.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi {

/// What the system probe read; nothing here loads a library or opens a device.
struct SystemFacts {
    sysfs::DeviceInventory inventory;
    host::PlatformFacts platform;
    host::HostClassification host;
    /// False when the root has no /sys/bus/pci/devices at all (e.g. a bare DOCA install tree).
    bool pci_bus_present = true;
};

/// Scans sysfs and the platform through ctx.fs, and classifies the host. On a live run the
/// ports' GID tables are left pending for finish_gid_tables() (probes/verbs/gid_tables.hpp).
SystemFacts probe_system(const ProbeContext& ctx);

}  // namespace rdmi
