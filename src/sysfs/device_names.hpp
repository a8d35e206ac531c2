// The RDMA device names of a root's sysfs and the PCI addresses they sit on, from directory
// entries and link texts only: what a shell completion may offer without reading a device.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace rdmi::sysfs {

/// How long a listing may take before it returns what it has: a TAB press must answer at once.
inline constexpr std::chrono::milliseconds kDeviceNamesBudget{200};

/// At most this many devices are listed (a host has a few dozen at most).
inline constexpr std::size_t kDeviceNamesLimit = 256;

/// The entries of `root`/sys/class/infiniband ("mlx5_0") and the PCI address each one's link
/// names ("0000:03:00.0"), sorted and each once. Nothing is followed or opened but that one
/// directory: no attribute is read, so a hung device or a hostile root cannot stall a TAB
/// press. Names with characters outside [A-Za-z0-9_.:-] are left out (they would be shell or
/// terminal syntax). Empty when `root` is no directory (a support bundle) or has no such
/// directory; stops after `budget` or kDeviceNamesLimit devices.
[[nodiscard]] std::vector<std::string> rdma_device_names(const std::string& root,
                                                         std::chrono::milliseconds budget);

}  // namespace rdmi::sysfs
