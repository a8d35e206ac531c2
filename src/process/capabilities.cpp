// drop_capabilities(): raw capget/capset and prctl, so that a child forked from a threaded
// process may call it (no allocation, no lock).
#include "process/capabilities.hpp"

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <string_view>

namespace rdmi {
namespace {

// linux/capability.h numbers, for the names in the report.
constexpr std::array<std::string_view, 41> kNames{"CAP_CHOWN",
                                                  "CAP_DAC_OVERRIDE",
                                                  "CAP_DAC_READ_SEARCH",
                                                  "CAP_FOWNER",
                                                  "CAP_FSETID",
                                                  "CAP_KILL",
                                                  "CAP_SETGID",
                                                  "CAP_SETUID",
                                                  "CAP_SETPCAP",
                                                  "CAP_LINUX_IMMUTABLE",
                                                  "CAP_NET_BIND_SERVICE",
                                                  "CAP_NET_BROADCAST",
                                                  "CAP_NET_ADMIN",
                                                  "CAP_NET_RAW",
                                                  "CAP_IPC_LOCK",
                                                  "CAP_IPC_OWNER",
                                                  "CAP_SYS_MODULE",
                                                  "CAP_SYS_RAWIO",
                                                  "CAP_SYS_CHROOT",
                                                  "CAP_SYS_PTRACE",
                                                  "CAP_SYS_PACCT",
                                                  "CAP_SYS_ADMIN",
                                                  "CAP_SYS_BOOT",
                                                  "CAP_SYS_NICE",
                                                  "CAP_SYS_RESOURCE",
                                                  "CAP_SYS_TIME",
                                                  "CAP_SYS_TTY_CONFIG",
                                                  "CAP_MKNOD",
                                                  "CAP_LEASE",
                                                  "CAP_AUDIT_WRITE",
                                                  "CAP_AUDIT_CONTROL",
                                                  "CAP_SETFCAP",
                                                  "CAP_MAC_OVERRIDE",
                                                  "CAP_MAC_ADMIN",
                                                  "CAP_SYSLOG",
                                                  "CAP_WAKE_ALARM",
                                                  "CAP_BLOCK_SUSPEND",
                                                  "CAP_AUDIT_READ",
                                                  "CAP_PERFMON",
                                                  "CAP_BPF",
                                                  "CAP_CHECKPOINT_RESTORE"};

constexpr int kMaxCapability = 63;

}  // namespace

std::vector<std::string> capability_names(CapabilityMask mask) {
    std::vector<std::string> out;
    for (int n = 0; n <= kMaxCapability; ++n) {
        if ((mask & capability_bit(n)) == 0) continue;
        out.emplace_back(static_cast<std::size_t>(n) < kNames.size()
                             ? std::string(kNames[static_cast<std::size_t>(n)])
                             : "CAP_" + std::to_string(n));
    }
    return out;
}

ContainmentFailure drop_capabilities(CapabilityMask keep) noexcept {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> data{};
    if (::syscall(SYS_capget, &header, data.data()) != 0) return {"capget", errno};
    const CapabilityMask permitted =
        data[0].permitted | (static_cast<CapabilityMask>(data[1].permitted) << 32U);
    // The bounding set first: dropping from it needs CAP_SETPCAP in the effective set, which
    // the capset below may remove. PR_CAPBSET_READ answers EINVAL past the kernel's last one.
    if ((permitted & capability_bit(CAP_SETPCAP)) != 0) {
        for (int n = 0; n <= kMaxCapability; ++n) {
            const int held = ::prctl(PR_CAPBSET_READ, n, 0, 0, 0);
            if (held < 0) break;
            if (held == 1 && (keep & capability_bit(n)) == 0 &&
                ::prctl(PR_CAPBSET_DROP, n, 0, 0, 0) != 0) {
                return {"prctl(PR_CAPBSET_DROP)", errno};
            }
        }
    }
    // Ambient capabilities (Linux 4.3) would survive an exec of an unprivileged program.
    if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        return {"prctl(PR_CAP_AMBIENT_CLEAR_ALL)", errno};
    const CapabilityMask kept = keep & permitted;
    for (std::size_t i = 0; i < data.size(); ++i) {
        const auto word = static_cast<std::uint32_t>(kept >> (32U * i));
        data[i].effective = word;
        data[i].permitted = word;
        data[i].inheritable = 0;
    }
    if (::syscall(SYS_capset, &header, data.data()) != 0) return {"capset", errno};
    return {};
}

}  // namespace rdmi
