// scan_devices(): the sysfs inventory of NVIDIA functions, rdma devices and netdevs.
#pragma once

#include "os/fs.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi::sysfs {

/// Reads /sys/bus/pci/devices, /sys/bus/auxiliary/devices, /sys/class/infiniband and each
/// function's net/ directory through `fs`. Never throws for bad input: a field that cannot be
/// had is a Gap, an entry that cannot be examined at all is listed in `gaps`. Cost is linear in
/// the number of functions, rdma devices and ports.
DeviceInventory scan_devices(const Fs& fs);

}  // namespace rdmi::sysfs
