// The held /proc/self/fd: one atomic descriptor, reset in a forked child before anything runs
// there (pthread_atfork's child handler runs in the child's only thread).
#include "os/proc_fd_dir.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>

namespace rdmi {
namespace {

constexpr int kNotOpened = -2;
constexpr int kUnavailable = -1;

std::atomic<int> g_proc_fd_dir{kNotOpened};

// In the child, the inherited descriptor names the parent's /proc/<pid>/fd: used there, it
// would reopen the parent's descriptor N, another file. Closed, so the child opens its own.
void forget_parents_proc_fd_dir() {
    const int inherited = g_proc_fd_dir.exchange(kNotOpened);
    if (inherited >= 0) ::close(inherited);
}

// Whether the child handler is in place; without it no descriptor is ever held (a child could
// not tell that the one it holds is its parent's).
bool fork_handler_registered() {
    static const bool registered =
        ::pthread_atfork(nullptr, nullptr, &forget_parents_proc_fd_dir) == 0;
    return registered;
}

// The descriptor, kUnavailable, or -errno for a process out of descriptors (tried again on the
// next use rather than given up on for good).
int open_proc_fd_dir() {
    // NOLINTNEXTLINE(*-vararg)
    const int fd = ::open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 && (errno == EMFILE || errno == ENFILE)) return -errno;
    if (fd < 0) return kUnavailable;
    // Only procfs's fd directory reopens the very inode a descriptor holds.
    struct statfs fs {};
    if (::fstatfs(fd, &fs) != 0 || fs.f_type != PROC_SUPER_MAGIC) {
        ::close(fd);
        return kUnavailable;
    }
    return fd;
}

}  // namespace

int proc_self_fd_dir() {
    const int held = g_proc_fd_dir.load(std::memory_order_acquire);
    if (held != kNotOpened) return held;
    if (!fork_handler_registered()) return kUnavailable;
    const int opened = open_proc_fd_dir();
    if (opened < kUnavailable) return opened;
    int expected = kNotOpened;
    if (g_proc_fd_dir.compare_exchange_strong(expected, opened, std::memory_order_acq_rel))
        return opened;
    // Another thread opened it first.
    if (opened >= 0) ::close(opened);
    return expected;
}

int reopen_through_proc(int path_fd, int flags) {
    const int dir = proc_self_fd_dir();
    if (dir < kUnavailable) {
        errno = -dir;
        return -1;
    }
    if (dir < 0) {
        errno = ENOENT;
        return -1;
    }
    std::array<char, 16> name{};
    const auto written = std::to_chars(name.data(), name.data() + name.size() - 1, path_fd);
    *written.ptr = '\0';
    return ::openat(dir, name.data(), flags | O_CLOEXEC);  // NOLINT(*-vararg)
}

}  // namespace rdmi
