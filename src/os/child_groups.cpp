// A fixed table of atomics: the signal handler may read it at any moment without locks.
#include "os/child_groups.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "os/open_file_limit.hpp"

namespace rdmi {
namespace {

// run_process and run_isolated have at most one child at a time each; a little room for more.
constexpr std::size_t kSlots = 64;
std::array<std::atomic<pid_t>, kSlots> g_groups{};

// A name in a directory the writer holds open (never a path looked up again).
constexpr std::size_t kNameMax = 256;
std::array<char, kNameMax> g_pending{};
std::atomic<int> g_pending_dir{-1};
std::atomic<bool> g_has_pending{false};

sigset_t interrupt_set() {
    sigset_t set;
    sigemptyset(&set);
    for_each_interrupt_signal([&set](int sig) { sigaddset(&set, sig); });
    return set;
}

}  // namespace

InterruptBlock::InterruptBlock() {
    const sigset_t set = interrupt_set();
    ::pthread_sigmask(SIG_BLOCK, &set, &saved_);
}

InterruptBlock::~InterruptBlock() {
    ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
}

void block_interrupts_in_this_thread() {
    const sigset_t set = interrupt_set();
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void reset_interrupts_in_child() {
    for_each_interrupt_signal([](int sig) { ::signal(sig, SIG_DFL); });
    for (const int sig : {SIGPIPE, SIGXFSZ}) ::signal(sig, SIG_DFL);
    const sigset_t set = interrupt_set();
    ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    for (auto& slot : g_groups) slot.store(0);
    g_has_pending.store(false);
}

pid_t fork_isolated_child(int parent_end) {
    std::fflush(nullptr);  // NOLINT(cert-err33-c): nothing buffered may be written twice
    const pid_t parent = ::getpid();
    pid_t pid = 0;
    {
        const InterruptBlock block;
        pid = ::fork();
        if (pid == 0) {
            ::setpgid(0, 0);
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) ::_exit(1);  // the parent is already gone
            // Inside the block: the parent's handlers never run here, not even for an instant.
            reset_interrupts_in_child();
            restore_open_file_limit_in_child();
        } else if (pid > 0) {
            ::setpgid(pid, pid);  // both sides set it: no race with the child's first steps
            register_child_group(pid);
        }
    }
    if (pid == 0) {
        // The block restored the calling thread's mask, which may block interrupts for good.
        reset_interrupts_in_child();
        ::close(parent_end);
    }
    return pid;
}

void register_child_group(pid_t pgid) {
    for (auto& slot : g_groups) {
        pid_t empty = 0;
        if (slot.compare_exchange_strong(empty, pgid)) return;
    }
}

void unregister_child_group(pid_t pgid) {
    for (auto& slot : g_groups) {
        pid_t mine = pgid;
        if (slot.compare_exchange_strong(mine, 0)) return;
    }
}

void kill_child_groups() noexcept {
    for (auto& slot : g_groups) {
        const pid_t pgid = slot.load();
        if (pgid <= 0) continue;
        ::kill(-pgid, SIGKILL);
        ::kill(pgid, SIGKILL);  // the leader, in case it has not reached setpgid yet
    }
}

void set_pending_file(int dir_fd, const std::string& name) {
    g_has_pending.store(false);
    if (name.size() >= kNameMax) return;
    std::memcpy(g_pending.data(), name.c_str(), name.size() + 1);
    g_pending_dir.store(dir_fd);
    g_has_pending.store(true);
}

void clear_pending_file() {
    g_has_pending.store(false);
}

void remove_pending_file() noexcept {
    if (g_has_pending.exchange(false)) ::unlinkat(g_pending_dir.load(), g_pending.data(), 0);
}

bool reap_within(pid_t pid, int& status, int within_ms) {
    // Polled: a child that dies at once is reaped by the first call; after that, sleeps grow
    // from 0.1 to 10 ms, so a slow exit costs little time and a stuck one little CPU.
    long waited_us = 0;
    long step_us = 100;
    for (;;) {
        const pid_t got = ::waitpid(pid, &status, WNOHANG);
        if (got == pid) return true;
        if (got < 0 && errno != EINTR) return errno == ECHILD;  // already reaped elsewhere
        if (waited_us >= static_cast<long>(within_ms) * 1000) return false;
        ::usleep(static_cast<useconds_t>(step_us));
        waited_us += step_us;
        step_us = std::min(step_us * 2, 10000L);
    }
}

}  // namespace rdmi
