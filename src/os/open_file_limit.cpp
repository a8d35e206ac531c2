// setrlimit(RLIMIT_NOFILE) once at start, and back in forked children.
#include "os/open_file_limit.hpp"

#include <atomic>

namespace rdmi {
namespace {

// The kernel's default fs.nr_open: setrlimit refuses more than the current nr_open.
constexpr rlim_t kUnlimitedCap = rlim_t{1} << 20U;

std::atomic<rlim_t> g_started_with{RLIM_INFINITY};
std::atomic<bool> g_raised{false};

}  // namespace

rlim_t raise_open_file_limit() noexcept {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
    const rlim_t want = limit.rlim_max == RLIM_INFINITY ? kUnlimitedCap : limit.rlim_max;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < want) {
        const rlim_t before = limit.rlim_cur;
        limit.rlim_cur = want;
        if (::setrlimit(RLIMIT_NOFILE, &limit) == 0) {
            g_started_with.store(before);
            g_raised.store(true);
        }
    }
    return ::getrlimit(RLIMIT_NOFILE, &limit) == 0 ? limit.rlim_cur : 0;
}

void restore_open_file_limit_in_child() noexcept {
    if (!g_raised.load()) return;
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    limit.rlim_cur = g_started_with.load();
    (void)::setrlimit(RLIMIT_NOFILE, &limit);
}

void leave_room_below_cpu_limit() noexcept {
    rlimit limit{};
    if (::getrlimit(RLIMIT_CPU, &limit) != 0) return;
    if (limit.rlim_max == RLIM_INFINITY || limit.rlim_cur != limit.rlim_max) return;
    if (limit.rlim_max < 2) return;
    limit.rlim_cur = limit.rlim_max - 1;
    (void)::setrlimit(RLIMIT_CPU, &limit);
}

}  // namespace rdmi
