// Landlock for the children that run vendor code: which ABI the kernel offers, a ruleset that
// forbids every file write outside the paths a vendor call needs, and enforcing it
// (docs/reference/containment.md#landlock).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "process/capabilities.hpp"

namespace rdmi {

/// The lowest Landlock ABI under which the ruleset covers every way of writing a file: ABI 3
/// added LANDLOCK_ACCESS_FS_TRUNCATE; before it, truncate(2) of an existing file is allowed.
inline constexpr int kLandlockFullAbi = 3;

/// What the kernel offers: the ABI version (1 or more), or 0 and the errno of
/// landlock_create_ruleset(LANDLOCK_CREATE_RULESET_VERSION): ENOSYS (not built in, or a
/// seccomp filter says so), EOPNOTSUPP (built in, not enabled at boot).
struct LandlockSupport {
    int abi = 0;
    int error = 0;
};

/// Asks the kernel, each call (one system call).
LandlockSupport landlock_support();

/// A path a contained child may write below (a directory) or to (a file).
struct LandlockGrant {
    std::string path;
    /// Also create, remove and truncate regular files below it (hugetlbfs mounts).
    bool create_files = false;
    /// Also ioctl(2) on device files below it (ABI 5): verbs talks to
    /// /dev/infiniband/uverbs* by ioctl.
    bool device_ioctl = false;
};

/// The paths every contained child may write: /dev/infiniband (read-write and ioctl, as
/// libibverbs opens uverbs and rdma_cm), /dev/null, and each hugetlbfs mount of `mounts_text`
/// (/proc/self/mounts) with file creation. A path missing on this host is left out by
/// build_landlock_ruleset(). Not verified on a host with a BlueField or ConnectX.
std::vector<LandlockGrant> vendor_write_grants(std::string_view mounts_text);

/// Builds a ruleset for `abi` that handles every write right that ABI knows (and, from ABI 4,
/// TCP bind/connect; from ABI 6, signals and abstract UNIX sockets leaving the domain) and
/// grants `grants`, best effort as the kernel's sample does: rights the ABI does not know are
/// dropped, and a grant whose path does not exist is skipped.
struct LandlockRuleset {
    int fd = -1;                 ///< close-on-exec; the caller's to close
    ContainmentFailure failure;  ///< the call the kernel refused, when fd is -1
};
LandlockRuleset build_landlock_ruleset(int abi, const std::vector<LandlockGrant>& grants);

/// In a forked child that has set no_new_privs: enforces `ruleset_fd` on itself (and all it
/// executes) and closes it. Async-signal-safe.
ContainmentFailure landlock_enforce(int ruleset_fd) noexcept;

}  // namespace rdmi
