// install_syscall_filter(): a classic BPF program built on the stack (no allocation: it runs in
// a child forked from a threaded process) and installed with prctl(PR_SET_SECCOMP).
#include "process/syscall_filter.hpp"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace rdmi {
namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
#else
#error "install_syscall_filter: add this architecture's AUDIT_ARCH_*"
#endif

// Numbers a build host's headers may lack (the kernel gives them the same number everywhere).
constexpr long kFchmodat2 = 452;
constexpr long kSetxattrat = 463;
constexpr long kRemovexattrat = 466;
constexpr long kClone3 = 435;

// Every call answered EPERM whatever its arguments.
constexpr std::array kDenied{
#ifdef SYS_chmod
    long{SYS_chmod},
#endif
#ifdef SYS_chown
    long{SYS_chown},
#endif
#ifdef SYS_lchown
    long{SYS_lchown},
#endif
#ifdef SYS_utime
    long{SYS_utime},
#endif
#ifdef SYS_utimes
    long{SYS_utimes},
#endif
#ifdef SYS_futimesat
    long{SYS_futimesat},
#endif
    long{SYS_fchmod},
    long{SYS_fchmodat},
    kFchmodat2,
    long{SYS_fchown},
    long{SYS_fchownat},
    long{SYS_utimensat},
    long{SYS_setxattr},
    long{SYS_lsetxattr},
    long{SYS_fsetxattr},
    kSetxattrat,
    long{SYS_removexattr},
    long{SYS_lremovexattr},
    long{SYS_fremovexattr},
    kRemovexattrat,
    long{SYS_io_uring_setup},
    long{SYS_io_uring_enter},
    long{SYS_io_uring_register},
    long{SYS_unshare},
    long{SYS_setns},
    long{SYS_mount},
    long{SYS_umount2},
    long{SYS_pivot_root},
    long{SYS_open_tree},
    long{SYS_move_mount},
    long{SYS_fsopen},
    long{SYS_fsconfig},
    long{SYS_fsmount},
    long{SYS_fspick},
    long{SYS_mount_setattr},
    long{SYS_setsid},
    long{SYS_setpgid},
    long{SYS_keyctl},
    long{SYS_add_key},
    long{SYS_request_key},
    long{SYS_bpf},
    long{SYS_perf_event_open},
};

constexpr std::uint32_t kNamespaceFlags = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC |
                                          CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |
                                          CLONE_NEWCGROUP | 0x00000080U /* CLONE_NEWTIME */;

constexpr std::uint32_t kNr = offsetof(seccomp_data, nr);
constexpr std::uint32_t kArch = offsetof(seccomp_data, arch);
// The low 32 bits of an argument (both architectures are little-endian).
constexpr std::uint32_t arg_low(int n) {
    return static_cast<std::uint32_t>(offsetof(seccomp_data, args) + 8 * n);
}

constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kEperm = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
constexpr std::uint32_t kEnosys = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);

constexpr sock_filter stmt(std::uint16_t code, std::uint32_t k) {
    return sock_filter{code, 0, 0, k};
}
constexpr sock_filter jump(std::uint16_t code, std::uint32_t k, std::uint8_t jt, std::uint8_t jf) {
    return sock_filter{code, jt, jf, k};
}

// The program, as a fixed-size array filled in order.
constexpr std::size_t kMaxProgram = 128;
struct Program {
    std::array<sock_filter, kMaxProgram> code{};
    std::size_t size = 0;
    constexpr void add(sock_filter f) { code[size++] = f; }
};

constexpr Program build() {
    Program p;
    // Another ABI (int 0x80 in an x86_64 process): its numbers mean other calls.
    p.add(stmt(BPF_LD | BPF_W | BPF_ABS, kArch));
    p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, kNativeArch, 1, 0));
    p.add(stmt(BPF_RET | BPF_K, kEperm));
    p.add(stmt(BPF_LD | BPF_W | BPF_ABS, kNr));
#if defined(__x86_64__)
    // x32 numbers (bit 30) reach the same calls under other numbers.
    p.add(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, 0, 1));
    p.add(stmt(BPF_RET | BPF_K, kEperm));
#endif
    for (const long nr : kDenied) {
        p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(nr), 0, 1));
        p.add(stmt(BPF_RET | BPF_K, kEperm));
    }
    p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, kClone3, 0, 1));
    p.add(stmt(BPF_RET | BPF_K, kEnosys));
    // socket(AF_UNIX, ...): the family is the first argument.
    p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 3));
    p.add(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(0)));
    p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1));
    p.add(stmt(BPF_RET | BPF_K, kEperm));
    p.add(stmt(BPF_LD | BPF_W | BPF_ABS, kNr));
    // clone(flags, ...) with a namespace flag; the flags are the first argument on both.
    p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3));
    p.add(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(0)));
    p.add(jump(BPF_JMP | BPF_JSET | BPF_K, kNamespaceFlags, 0, 1));
    p.add(stmt(BPF_RET | BPF_K, kEperm));
    p.add(stmt(BPF_LD | BPF_W | BPF_ABS, kNr));
    // ioctl(fd, TIOCSTI or TIOCLINUX, ...).
    p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 4));
    p.add(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(1)));
    p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 1, 0));
    p.add(jump(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 0, 1));
    p.add(stmt(BPF_RET | BPF_K, kEperm));
    p.add(stmt(BPF_RET | BPF_K, kAllow));
    return p;
}

constexpr Program kProgram = build();
static_assert(kProgram.size < kMaxProgram);

}  // namespace

bool kernel_has_syscall_filter() {
    return ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 || errno != EINVAL;
}

ContainmentFailure install_syscall_filter() noexcept {
    sock_fprog prog{static_cast<unsigned short>(kProgram.size),
                    const_cast<sock_filter*>(kProgram.code.data())};  // NOLINT: the kernel copies
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
        return {"prctl(PR_SET_SECCOMP)", errno};
    return {};
}

}  // namespace rdmi
