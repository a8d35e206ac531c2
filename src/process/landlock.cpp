// Landlock through raw system calls: the ABI is asked at run time, and the rights and
// structures are spelt here from the kernel's UAPI (include/uapi/linux/landlock.h), since a
// build host's headers may predate the ABI the running kernel has.
#include "process/landlock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "text/text.hpp"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

namespace rdmi {
namespace {

struct RulesetAttr {
    std::uint64_t handled_access_fs = 0;
    std::uint64_t handled_access_net = 0;  // ABI 4
    std::uint64_t scoped = 0;              // ABI 6
};

struct PathBeneathAttr {
    std::uint64_t allowed_access = 0;
    std::int32_t parent_fd = -1;
} __attribute__((packed));

constexpr std::uint32_t kCreateRulesetVersion = 1U << 0U;
constexpr int kRulePathBeneath = 1;

constexpr std::uint64_t bit(unsigned n) {
    return std::uint64_t{1} << n;
}
// LANDLOCK_ACCESS_FS_*: ABI 1 has bits 0-12, ABI 2 adds REFER, 3 TRUNCATE, 5 IOCTL_DEV.
constexpr std::uint64_t kWriteFile = bit(1);
constexpr std::uint64_t kRemoveDir = bit(4);
constexpr std::uint64_t kRemoveFile = bit(5);
constexpr std::uint64_t kMakeChar = bit(6);
constexpr std::uint64_t kMakeDir = bit(7);
constexpr std::uint64_t kMakeReg = bit(8);
constexpr std::uint64_t kMakeSock = bit(9);
constexpr std::uint64_t kMakeFifo = bit(10);
constexpr std::uint64_t kMakeBlock = bit(11);
constexpr std::uint64_t kMakeSym = bit(12);
constexpr std::uint64_t kRefer = bit(13);
constexpr std::uint64_t kTruncate = bit(14);
constexpr std::uint64_t kIoctlDev = bit(15);
// LANDLOCK_ACCESS_NET_BIND_TCP, _CONNECT_TCP (ABI 4); LANDLOCK_SCOPE_* (ABI 6).
constexpr std::uint64_t kNetTcp = bit(0) | bit(1);
constexpr std::uint64_t kScopeAbstractUnixSocket = bit(0);
constexpr std::uint64_t kScopeSignal = bit(1);

// Rights that only make sense on a directory: a rule on a regular file may not name them.
constexpr std::uint64_t kDirectoryOnly = kRemoveDir | kRemoveFile | kMakeChar | kMakeDir |
                                         kMakeReg | kMakeSock | kMakeFifo | kMakeBlock | kMakeSym |
                                         kRefer;

// Every right that changes the file system, as far as `abi` knows rights.
std::uint64_t handled_writes(int abi) {
    std::uint64_t rights = kWriteFile | kRemoveDir | kRemoveFile | kMakeChar | kMakeDir | kMakeReg |
                           kMakeSock | kMakeFifo | kMakeBlock | kMakeSym;
    if (abi >= 2) rights |= kRefer;
    if (abi >= 3) rights |= kTruncate;
    if (abi >= 5) rights |= kIoctlDev;
    return rights;
}

std::uint64_t granted(const LandlockGrant& grant) {
    std::uint64_t rights = kWriteFile;
    if (grant.create_files) rights |= kMakeReg | kRemoveFile | kTruncate;
    if (grant.device_ioctl) rights |= kIoctlDev;
    return rights;
}

}  // namespace

LandlockSupport landlock_support() {
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
    if (abi < 0) return {0, errno};
    return {static_cast<int>(abi), 0};
}

std::vector<LandlockGrant> vendor_write_grants(std::string_view mounts_text) {
    std::vector<LandlockGrant> grants{{"/dev/infiniband", false, true},
                                      {"/dev/null", false, false}};
    // /proc/self/mounts: "device mountpoint type options 0 0"; a space in a mount point is
    // written \040, which such a mount point keeps here (its open then fails: skipped).
    for (const auto& line : split_lines(mounts_text)) {
        const auto fields = split_items(line, " \t");
        if (fields.size() >= 3 && fields[2] == "hugetlbfs")
            grants.push_back({std::string(fields[1]), true, false});
    }
    return grants;
}

LandlockRuleset build_landlock_ruleset(int abi, const std::vector<LandlockGrant>& grants) {
    RulesetAttr attr;
    attr.handled_access_fs = handled_writes(abi);
    if (abi >= 4) attr.handled_access_net = kNetTcp;
    if (abi >= 6) attr.scoped = kScopeAbstractUnixSocket | kScopeSignal;
    // Fields an older kernel does not know are zero, which it accepts from a larger struct.
    const long fd = ::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0U);
    if (fd < 0) return {-1, {"landlock_create_ruleset", errno}};
    const int ruleset = static_cast<int>(fd);
    for (const auto& grant : grants) {
        const int path_fd = ::open(grant.path.c_str(), O_PATH | O_CLOEXEC);
        if (path_fd < 0) continue;  // not on this host: nothing there to write
        struct stat st {};
        const bool directory = ::fstat(path_fd, &st) == 0 && S_ISDIR(st.st_mode);
        PathBeneathAttr rule;
        rule.allowed_access = granted(grant) & attr.handled_access_fs;
        if (!directory) rule.allowed_access &= ~kDirectoryOnly;
        rule.parent_fd = path_fd;
        const long added = ::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0U);
        const int err = errno;
        ::close(path_fd);
        if (added != 0) {
            ::close(ruleset);
            return {-1, {"landlock_add_rule", err}};
        }
    }
    return {ruleset, {}};
}

ContainmentFailure landlock_enforce(int ruleset_fd) noexcept {
    const long rc = ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0U);
    const int err = errno;
    ::close(ruleset_fd);
    if (rc != 0) return {"landlock_restrict_self", err};
    return {};
}

}  // namespace rdmi
