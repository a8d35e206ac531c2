// check --wait's re-read of a device inventory: what can change while a host boots (a port
// going ACTIVE, a function, rdma device or netdev appearing or going away) read again, the rest
// of the first scan (ids, GID tables, firmware, ...) kept.
#pragma once

#include <set>
#include <string>

#include "os/fs.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi::sysfs {

/// What one poll learns for the next: the /sys/bus/pci/devices entries that are not NVIDIA
/// functions (their vendor read once, not on every poll).
struct InventoryPollMemory {
    std::set<std::string, std::less<>> foreign_pci;
};

/// Whether polls can keep what `inventory` (a whole scan) holds: false when the scan left
/// something unread (an entry, a function's id or parent, a listing), since a later read could
/// fill it, and only a whole scan reads it again.
bool inventory_pollable(const DeviceInventory& inventory);

/// Reads again what `inventory` (a pollable whole scan, or the last poll's result) depends on
/// that can change while its functions stay: the PCI, auxiliary and rdma listings, each
/// function's net/ listing, each rdma device's ports/ listing and `device` link, each port's
/// `state`; then writes every port's fresh state into `inventory`. False, with `inventory`
/// partly written and to be thrown away, when the tree no longer has the inventory's shape (a
/// function, SF, rdma device, port or netdev came or went, an rdma device now belongs to
/// another function, a new PCI entry is or may be NVIDIA's) or a read failed: a whole scan
/// must answer then.
/// A function that stays at its address is taken to be the same device, its ids unchanged.
bool poll_inventory(const Fs& fs, DeviceInventory& inventory, InventoryPollMemory& memory);

}  // namespace rdmi::sysfs
