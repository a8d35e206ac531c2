// The steps of scan_devices(), one file each; internal to src/sysfs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "os/fs.hpp"
#include "sysfs/gid_table.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi::sysfs {

/// Function index by resolved /sys/devices path.
using FunctionIndex = std::map<std::string, std::size_t, std::less<>>;

/// Whether an auxiliary device is an mlx5 scalable function ("mlx5_core.sf.<N>").
bool is_sf_name(std::string_view name);

/// Appends every vendor-0x15b3 PCI function of /sys/bus/pci/devices.
void scan_pci_functions(const Fs& fs, DeviceInventory& inventory);

/// Appends every mlx5 scalable function of /sys/bus/auxiliary/devices.
void scan_subfunctions(const Fs& fs, DeviceInventory& inventory);

/// Fills each function's DPA capability (PFs from their id; VFs and SFs from their PF).
void infer_dpa(DeviceInventory& inventory);

/// Appends the netdevs found in each function's net/ directory and records their names on
/// the function.
void scan_netdevs(const Fs& fs, DeviceInventory& inventory);

/// The number a directory entry is named by ("12" of ports/ or gids/); nullopt for any other
/// name.
std::optional<std::uint32_t> numbered_entry(std::string_view name);

/// Appends every rdma device of /sys/class/infiniband with its ports, and records each on
/// the function its `device` link resolves to (looked up in `by_path`); each port's GID table
/// read or left pending as `gid_tables` says.
void scan_rdma_devices(const Fs& fs, const FunctionIndex& by_path, GidTables gid_tables,
                       DeviceInventory& inventory);

}  // namespace rdmi::sysfs
