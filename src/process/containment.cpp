// The containment policy: the settings the session gives, what each kind of child keeps, the
// status the report shows, and the child's set-up after fork.
#include "process/containment.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include "process/landlock.hpp"
#include "process/syscall_filter.hpp"

namespace rdmi {
namespace {

ContainmentSettings& settings() {
    static ContainmentSettings current;
    return current;
}

// PR_GET_NO_NEW_PRIVS answers EINVAL before Linux 3.5 (or when a seccomp filter says so).
bool kernel_has_no_new_privs() {
    return ::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) >= 0;
}

CapabilityMask capabilities_held() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> data{};
    if (::syscall(SYS_capget, &header, data.data()) != 0) return 0;
    return data[0].permitted | (static_cast<CapabilityMask>(data[1].permitted) << 32U);
}

std::string mounts_text() {
    std::string text;
    const int fd = ::open("/proc/self/mounts", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return text;
    std::array<char, 8192> buf{};
    // Bounded: a host with thousands of mounts still has its hugetlbfs ones near the top.
    while (text.size() < (std::size_t{1} << 20U)) {
        const ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buf.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

std::string landlock_missing(int error) {
    if (error == EPERM)
        return "a system call filter refuses Landlock (landlock_create_ruleset: EPERM; a "
               "systemd unit's SystemCallFilter= must allow the landlock_* calls): vendor code "
               "and tools may write files";
    if (error == EOPNOTSUPP)
        return "Landlock is built into the kernel but not enabled (add landlock to the lsm= boot "
               "parameter): vendor code and tools may write files";
    return std::string("the kernel has no Landlock (landlock_create_ruleset: ") +
           std::strerror(error) + "): vendor code and tools may write files";  // NOLINT
}

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

// close_range(2) (Linux 5.9) from `first` to `last`, else one close() each up to the limit.
void close_span(unsigned first, unsigned last) noexcept {
    if (first > last) return;
    if (::syscall(SYS_close_range, first, last, 0U) == 0) return;
    rlimit limit{};
    unsigned end = last;
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        limit.rlim_cur - 1 < end) {
        end = static_cast<unsigned>(limit.rlim_cur - 1);
    }
    end = std::min(end, 1U << 20U);
    for (unsigned fd = first; fd <= end && fd >= first; ++fd) ::close(static_cast<int>(fd));
}

// Closes every descriptor from 3 up but the (at most two) of `keep`.
void close_all_but(std::array<int, 2> keep) noexcept {
    if (keep[0] > keep[1]) std::swap(keep[0], keep[1]);
    unsigned next = 3;
    for (const int fd : keep) {
        if (fd < static_cast<int>(next)) continue;
        close_span(next, static_cast<unsigned>(fd) - 1);
        next = static_cast<unsigned>(fd) + 1;
    }
    close_span(next, ~0U);
}

}  // namespace

std::string_view to_string(ContainmentState state) {
    switch (state) {
        case ContainmentState::full:
            return "full";
        case ContainmentState::partial:
            return "partial";
        case ContainmentState::none:
            return "none";
        case ContainmentState::not_applicable:
            break;
    }
    return "not_applicable";
}

void configure_containment(const ContainmentSettings& given) {
    settings() = given;
}

ContainmentSettings containment_settings() {
    return settings();
}

// Why each keeps what it keeps: docs/reference/containment.md#capabilities.
CapabilityMask capabilities_kept(ContainedWork work) {
    switch (work) {
        case ContainedWork::library_calls:
        case ContainedWork::tool:
        case ContainedWork::package_database:
            return 0;
        case ContainedWork::loopback:
            return capability_bit(CAP_IPC_LOCK) | capability_bit(CAP_NET_RAW) |
                   capability_bit(CAP_SYS_RAWIO);
    }
    return 0;
}

ContainmentStatus containment_status() {
    ContainmentStatus status;
    const ContainmentSettings& wanted = settings();
    if (!wanted.applicable) {
        status.reasons.push_back(wanted.not_applicable_reason);
        return status;
    }
    const CapabilityMask held = capabilities_held();
    status.library_calls_capabilities =
        capability_names(capabilities_kept(ContainedWork::library_calls) & held);
    status.loopback_capabilities =
        capability_names(capabilities_kept(ContainedWork::loopback) & held);
    status.tool_capabilities = capability_names(capabilities_kept(ContainedWork::tool) & held);
    status.no_new_privs = kernel_has_no_new_privs();
    if (!status.no_new_privs) {
        status.state = ContainmentState::none;
        status.reasons.emplace_back(
            "the kernel refuses no_new_privs (PR_GET_NO_NEW_PRIVS failed): a tool or a setuid "
            "program a vendor library executes can regain every capability, and Landlock "
            "cannot be enforced without it");
        return status;
    }
    status.state = ContainmentState::partial;
    if (!wanted.syscall_filter) {
        status.reasons.emplace_back(
            "the system call filter is off (--no-syscall-filter): vendor code and tools may "
            "change the mode and owner of root's files and reach root's UNIX sockets");
    } else if (!kernel_has_syscall_filter()) {
        status.reasons.emplace_back(
            "the kernel has no system call filter (seccomp): vendor code and tools may change "
            "the mode and owner of root's files and reach root's UNIX sockets (the D-Bus "
            "system bus, systemd)");
    }
    if (!wanted.landlock) {
        status.reasons.emplace_back(
            "--no-landlock was given: vendor code and tools may write files");
        return status;
    }
    const LandlockSupport landlock = landlock_support();
    if (landlock.abi == 0) {
        status.reasons.push_back(landlock_missing(landlock.error));
        return status;
    }
    status.landlock_abi = landlock.abi;
    if (landlock.abi < kLandlockFullAbi) {
        status.reasons.push_back("Landlock ABI " + std::to_string(landlock.abi) +
                                 " cannot forbid truncating an existing file (ABI " +
                                 std::to_string(kLandlockFullAbi) + ", Linux 6.2, can)");
        return status;
    }
    if (status.reasons.empty()) status.state = ContainmentState::full;
    return status;
}

std::string containment_refusal_note() {
    const ContainmentSettings& wanted = settings();
    if (!wanted.applicable) return "";
    std::string note =
        "refused inside the contained child (no new privileges, capabilities dropped";
    if (wanted.landlock)
        note += ", Landlock: writes only to /dev/infiniband, /dev/null and hugetlbfs mounts";
    note += "), which says nothing about the device; run.containment shows what applied";
    if (wanted.landlock) note += ", and --no-landlock tells a Landlock refusal apart";
    return note;
}

ChildContainment ChildContainment::prepare(ContainedWork work,
                                           const std::vector<std::string>& writable_files,
                                           const std::vector<std::string>& writable_dirs) {
    ChildContainment prepared;
    const ContainmentSettings& wanted = settings();
    // "Not applicable" means nothing of the root is loaded; the package database's reader is
    // this machine's own librpm, loaded under --root too, so it is always contained.
    prepared.applicable_ = wanted.applicable || work == ContainedWork::package_database;
    if (!prepared.applicable_) return prepared;
    prepared.no_new_privs_ = kernel_has_no_new_privs();
    // Installing a filter needs no_new_privs (or CAP_SYS_ADMIN, which the drop removed).
    prepared.syscall_filter_ =
        wanted.syscall_filter && prepared.no_new_privs_ && kernel_has_syscall_filter();
    prepared.keep_ = capabilities_kept(work);
    // Without no_new_privs, landlock_restrict_self needs CAP_SYS_ADMIN, which the drop removed.
    if (!wanted.landlock || !prepared.no_new_privs_) return prepared;
    const LandlockSupport landlock = landlock_support();
    if (landlock.abi == 0) return prepared;  // the status says partial, and why
    auto grants = vendor_write_grants(mounts_text());
    for (const auto& file : writable_files) grants.push_back({file, false, false});
    for (const auto& dir : writable_dirs) grants.push_back({dir, true, false});
    const LandlockRuleset ruleset = build_landlock_ruleset(landlock.abi, grants);
    prepared.ruleset_fd_ = ruleset.fd;
    prepared.prepare_failure_ = ruleset.failure;
    return prepared;
}

ChildContainment::ChildContainment(ChildContainment&& other) noexcept
    : applicable_(other.applicable_),
      no_new_privs_(other.no_new_privs_),
      syscall_filter_(other.syscall_filter_),
      keep_(other.keep_),
      ruleset_fd_(std::exchange(other.ruleset_fd_, -1)),
      prepare_failure_(other.prepare_failure_) {}

ChildContainment::~ChildContainment() {
    if (ruleset_fd_ >= 0) ::close(ruleset_fd_);
}

ContainmentFailure ChildContainment::apply(int keep_fd) const noexcept {
    if (!applicable_) return {};
    if (prepare_failure_.failed()) return prepare_failure_;
    // First, before anything is given up: what the probe holds open (its --output, the
    // directories it reads, what it inherited) is not the child's to write through.
    close_all_but({keep_fd, ruleset_fd_});
    // no_new_privs first: from here no exec (of a tool, or by a vendor library) can gain
    // privileges, and Landlock may be enforced without CAP_SYS_ADMIN.
    if (no_new_privs_ && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return {"prctl(PR_SET_NO_NEW_PRIVS)", errno};
    if (const auto dropped = drop_capabilities(keep_); dropped.failed()) return dropped;
    if (ruleset_fd_ >= 0) {
        if (const auto enforced = landlock_enforce(ruleset_fd_); enforced.failed()) return enforced;
    }
    // Last: the filter refuses setpgid, which the set-up above does not call.
    if (syscall_filter_) return install_syscall_filter();
    return {};
}

std::string ChildContainment::describe(const ContainmentFailure& failure) {
    return std::string("containment could not be applied: ") + failure.step + ": " +
           std::strerror(failure.error) + "; nothing was loaded or run";  // NOLINT
}

}  // namespace rdmi
