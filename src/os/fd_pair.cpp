// FdPair: close_range(2) where the kernel has it (Linux 5.9), close(2) each otherwise.
#include "os/fd_pair.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

namespace rdmi {
namespace {

// Cleared when the kernel (or a seccomp filter) refuses close_range: not asked again.
std::atomic<bool> g_close_range_works{true};

}  // namespace

FdPair::~FdPair() {
    // Only two neighbours: a range with a gap would close a descriptor someone else owns.
    const bool neighbours =
        checked_ >= 0 && opened_ >= 0 && (opened_ == checked_ + 1 || checked_ == opened_ + 1);
    if (neighbours && g_close_range_works.load(std::memory_order_relaxed)) {
        const auto low = static_cast<unsigned>(std::min(checked_, opened_));
        if (::syscall(SYS_close_range, low, low + 1U, 0U) == 0) return;
        // EINVAL cannot come from these arguments; anything else (ENOSYS, EPERM): not there.
        g_close_range_works.store(false, std::memory_order_relaxed);
    }
    if (checked_ >= 0) ::close(checked_);
    if (opened_ >= 0) ::close(opened_);
}

}  // namespace rdmi
