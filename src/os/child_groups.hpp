// Every process group the probe starts, kept where a signal handler can end them all, and the
// one temporary file a write may leave behind.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace rdmi {

/// The signals that end a run the way SIGTERM does (cli/interrupt.cpp handles them): the
/// terminal's and the service manager's (SIGINT, SIGTERM, SIGHUP, SIGQUIT), the CPU time limit
/// (SIGXCPU, ulimit -t), a timer or a stray kill (SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF,
/// SIGIO, SIGPWR, SIGSTKFLT: the default action of each ends the process too, which would
/// leave the temporaries behind).
inline constexpr int kInterruptSignals[] = {SIGINT,  SIGTERM, SIGHUP,   SIGQUIT,   SIGXCPU,
                                            SIGALRM, SIGUSR1, SIGUSR2,  SIGVTALRM, SIGPROF,
                                            SIGIO,   SIGPWR,  SIGSTKFLT};

/// Calls `f(signal)` for every signal that ends a run the way SIGTERM does: kInterruptSignals,
/// then the real-time signals SIGRTMIN..SIGRTMAX (their default action ends the process; the two
/// below SIGRTMIN are the C library's own and are left alone). Async-signal-safe when `f` is.
template <class F>
void for_each_interrupt_signal(F&& f) {
    for (const int sig : kInterruptSignals) f(sig);
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) f(sig);
}

/// Blocks the interrupt signals (kInterruptSignals) in the calling thread for its lifetime, so that
/// a child started meanwhile is registered before the handler can run (the handler runs on the main
/// thread: the probe's other threads block these signals for good).
class InterruptBlock {
  public:
    InterruptBlock();
    ~InterruptBlock();
    InterruptBlock(const InterruptBlock&) = delete;
    InterruptBlock& operator=(const InterruptBlock&) = delete;

  private:
    sigset_t saved_{};
};

/// Blocks the interrupt signals in the calling thread for good (helper threads).
void block_interrupts_in_this_thread();

/// Resets the interrupt signals, SIGPIPE and SIGXFSZ to their defaults and unblocks the
/// interrupt signals: the first thing a forked child does, so it never runs the parent's handler.
void reset_interrupts_in_child();

/// fork() for a child that runs probe work on the far end of a pipe or socket. In the child
/// (return 0): its own process group (a terminal's ^C reaches the probe alone, which then ends
/// the group), killed with the probe even by SIGKILL, default signal handlers, interrupts
/// unblocked, `parent_end` closed. In the parent: the child's group is registered before any
/// interrupt handler can run, so a signal never orphans it. -1 with errno when fork fails.
pid_t fork_isolated_child(int parent_end);

/// Records a child process group (its leader's pid) until unregister_child_group().
void register_child_group(pid_t pgid);
void unregister_child_group(pid_t pgid);

/// How long a child sent SIGKILL is waited for. It dies at once unless it sleeps uninterruptibly
/// in the kernel (a hung NFS read, a driver call that never returns), which is what the vendor
/// calls run in children for; then it is left to exit on its own (init reaps it after the probe
/// exits) rather than holding the probe.
inline constexpr int kKilledChildWaitMs = 2000;

/// waitpid() for `pid`, for at most `within_ms` milliseconds: true and its status once reaped,
/// false if it has not exited by then (it is left unreaped). EINTR is retried.
bool reap_within(pid_t pid, int& status, int within_ms);

/// SIGKILLs every registered group. Async-signal-safe.
void kill_child_groups() noexcept;

/// The temporary file being written (atomic --output): `name` in the directory `dir_fd`, which
/// stays open until clear_pending_file(). Removed by remove_pending_file().
void set_pending_file(int dir_fd, const std::string& name);
void clear_pending_file();
/// unlinkat()s the pending file, if any. Async-signal-safe.
void remove_pending_file() noexcept;

}  // namespace rdmi
