// scan_devices(): the sysfs inventory of NVIDIA functions, rdma devices and netdevs.
#pragma once

#include "os/fs.hpp"
#include "sysfs/gid_table.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi::sysfs {

/// Reads /sys/bus/pci/devices, /sys/bus/auxiliary/devices, /sys/class/infiniband and each
/// function's net/ directory through `fs`. Never throws for bad input: a field that cannot be
/// had is a Gap, an entry that cannot be examined at all is listed in `gaps`. Cost is linear in
/// the number of functions, rdma devices and ports.
/// With GidTables::defer each port's GID table is left pending (RdmaPort::pending_gids), to be
/// filled by finish_gid_table() from libibverbs' answer, or from sysfs where there is none.
DeviceInventory scan_devices(const Fs& fs, GidTables gid_tables = GidTables::read);

}  // namespace rdmi::sysfs
