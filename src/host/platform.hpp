// scan_platform(): kernel, drivers, hugepages, uverbs nodes and BlueField platform markers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "host/live_host.hpp"
#include "host/proc_mounts.hpp"
#include "os/fs.hpp"

namespace rdmi::host {

/// One hugepage pool (/sys/kernel/mm/hugepages/hugepages-<size>kB).
struct HugepagePool {
    Sourced<std::uint64_t> nr_hugepages;
    Sourced<std::uint64_t> free_hugepages;
};

/// One /dev/infiniband/uverbs<N> node.
struct UverbsNode {
    std::string path;  ///< /dev/infiniband/uverbs0
    FileInfo info;     ///< type, permission bits, owner
    /// Whether the invoking user may open it read-write (what libibverbs needs); computed from
    /// the mode bits and the live credentials, not_applicable under --root.
    Sourced<bool> accessible;
};

/// Whether a kernel module is present, and how ("loaded" from /proc/modules, "built-in"
/// when /sys/module/<name> exists without a /proc/modules line).
struct ModuleState {
    Sourced<bool> present;
    std::string how;  ///< "loaded", "built-in" or "" when absent/unknown
};

/// The platform facts the contract's `drivers`, `hugepages`, `host_kind` fields draw on.
struct PlatformFacts {
    bool live = false;                  ///< true when read from the live system (uname was used)
    Sourced<std::string> architecture;  ///< uname -m live; /proc/sys/kernel/arch under a root
    /// Under a root with neither /proc nor an ELF shell, the architecture is only what its one
    /// multiarch library directory suggests: a guess, which BlueField-only markers outweigh.
    bool architecture_from_layout = false;
    Sourced<std::string> kernel_release;  ///< uname -r live; /proc/sys/kernel/osrelease
    ModuleState mlx5_core;
    ModuleState mlx5_ib;
    Sourced<std::vector<std::string>> mlx5_modules;  ///< loaded and built-in mlx5_*, sorted
    HugepagePool hugepages_2m;
    HugepagePool hugepages_1g;
    Sourced<std::vector<HugetlbfsMount>> hugetlbfs_mounts;  ///< empty list: none mounted
    Sourced<std::vector<UverbsNode>> uverbs;                ///< sorted by path
    Sourced<std::string> bfb;                               ///< /etc/mlnx-release (the BFB string)
    Sourced<std::vector<std::string>> bluefield_platform_devices;  ///< MLNXBF* ACPI devices
};

/// Reads the platform facts through `fs`. `live` (from query_live_host) supplies uname and the
/// credentials; when it is nullopt (any --root) only the root's own files are used.
PlatformFacts scan_platform(const Fs& fs, const std::optional<LiveHost>& live);

/// scan_platform(fs, query_live_host(fs)).
PlatformFacts scan_platform(const Fs& fs);

/// The machine ("x86_64", "aarch64", ...) a root's programs are for, as scan_platform reads it
/// under --root: the root's /proc/sys/kernel/arch, else the ELF header of its shell, else its
/// multiarch library directory (/usr/lib/<machine>-linux-gnu) when it has one machine's only.
/// nullopt when none says.
std::optional<std::string> root_machine_name(const Fs& fs);

}  // namespace rdmi::host
