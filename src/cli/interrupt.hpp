// Ending a run on SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGALRM, SIGUSR1 or SIGUSR2: every
// child process group killed, the temporaries removed, the error document when --json, exit
// 128+N. And one writer of the run's last words.
#pragma once

#include <string_view>

namespace rdmi::cli {

/// Exit status when stdout is closed before the document is written (128 + SIGPIPE).
inline constexpr int kExitBrokenPipe = 141;

/// Who writes the run's final output; the first to claim it is the only one.
enum class OutputOwner : int {
    document = 1,
    interrupt = 2,
    watchdog = 3,
    /// The document is on its way to --output, not to stdout: an interrupt may still take stdout
    /// for its error document (hand_over_output).
    output_file = 4,
};

/// A new run (its Watchdog) starts with no owner: in one process runs follow each other (tests).
void reset_output_owner() noexcept;

/// True when `who` owns the final output (it claimed it now, or had already). Lock-free and
/// async-signal-safe.
bool claim_output(OutputOwner who) noexcept;

/// Moves the final output from `from` to `to`; false (and nothing changed) when `from` does not
/// own it. Lock-free and async-signal-safe.
bool hand_over_output(OutputOwner from, OutputOwner to) noexcept;

/// Never returns: the final output is another's (a signal handler's or the watchdog's), which
/// ends the process with its own words, so the calling thread writes nothing and waits for
/// that. Async-signal-safe.
[[noreturn]] void wait_for_the_owner_to_exit() noexcept;

/// Installs the handlers of the interrupt signals (os/child_groups.hpp
/// for_each_interrupt_signal: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGALRM, SIGUSR1,
/// SIGUSR2, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT, SIGRTMIN..SIGRTMAX; kill every child
/// group, remove a pending --output temporary and a replay's private directory, print "interrupted
/// by SIGINT" on stderr and, when `json`, the error document on stdout, _exit(128+N)), ignores
/// SIGPIPE (a closed stdout is seen as EPIPE and ends the run quietly with kExitBrokenPipe) and
/// SIGXFSZ (a write past ulimit -f fails with EFBIG: a named write error, exit 2).
void install_interrupt_handlers(bool json);

/// Installs the SIGBUS handler (also done by install_interrupt_handlers): a read of a mapped file
/// that shrank under its mapping ends the run with "rdmi-probe: PATH: the file shrank while it was
/// mapped (SIGBUS)" on stderr, the error document on stdout when `json`, and exit 2. A SIGBUS at
/// an address no mapped file holds keeps the default action.
void install_bus_error_handler(bool json);

/// The message of a run ended by `signal` ("interrupted by SIGINT").
const char* interrupt_message(int signal) noexcept;

/// The error document the handler of `signal` writes on stdout, as install_interrupt_handlers()
/// prepared it: empty before, without --json, or for a signal it does not handle.
std::string_view interrupt_document(int signal) noexcept;

}  // namespace rdmi::cli
