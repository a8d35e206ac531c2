// The system call filter of the contained children: what a process running as uid 0 may still
// do without any capability and outside what Landlock governs (docs/reference/containment.md
// "System call filter").
#pragma once

#include "process/capabilities.hpp"

namespace rdmi {

/// Whether the kernel filters system calls (seccomp, Linux 3.5): false when PR_GET_SECCOMP
/// answers EINVAL (a kernel built without CONFIG_SECCOMP).
bool kernel_has_syscall_filter();

/// In a forked child that has set no_new_privs: installs a seccomp filter that answers EPERM to
/// what uid 0 may do to the machine without a capability and Landlock does not see: changing
/// the mode, owner, extended attributes or times of a file it owns (chmod, chown, *xattr,
/// utime*), creating an AF_UNIX socket (the D-Bus system bus, /run/systemd/private: a caller
/// of uid 0 may ask systemd to start anything as root), io_uring (whose operations no filter
/// sees), namespaces and mounts (unshare, setns, clone with a CLONE_NEW* flag, mount and the
/// new mount API; clone3, whose flags it cannot read, answers ENOSYS so that the C library
/// falls back to clone), leaving the process group (setsid, setpgid: a daemon that did would
/// outlive the probe's kill of the group), the kernel keyrings, bpf, perf_event_open,
/// TIOCSTI and TIOCLINUX (typing into the terminal the probe was started from), and every
/// system call of another ABI (x32, int 0x80). Async-signal-safe.
ContainmentFailure install_syscall_filter() noexcept;

}  // namespace rdmi
