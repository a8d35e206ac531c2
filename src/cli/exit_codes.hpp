// The documented exit codes. They never change meaning.
#pragma once

#include "core/check.hpp"

namespace rdmi::cli {

/// Everything checked passed, or a read-only subcommand produced its document.
inline constexpr int kExitOk = 0;
/// A check failed.
inline constexpr int kExitFailed = 1;
/// Usage error, unreadable input (also a run the watchdog ended: --timeout overrun), or an
/// internal error.
inline constexpr int kExitUsage = 2;
/// Nothing failed, but something could not be checked (skip).
inline constexpr int kExitSkipped = 3;

/// How a verdict becomes an exit code where a subcommand's documented rule differs.
struct ExitRule {
    /// symbols: exit 1 only when the document's result is fail; a skip is said in the document.
    bool skip_exits_ok = false;
};

/// The exit code that says what a document's `result` says: fail 1, skip 3 (0 under
/// skip_exits_ok), pass, info and warn 0 (check --fail-on-warn has made a warning a fail
/// before this). Every subcommand with a verdict exits through this.
constexpr int exit_code_for(Status result, ExitRule rule = {}) {
    switch (result) {
        case Status::fail:
            return kExitFailed;
        case Status::skip:
            return rule.skip_exits_ok ? kExitOk : kExitSkipped;
        case Status::pass:
        case Status::info:
        case Status::warn:
            return kExitOk;
    }
    return kExitUsage;
}

/// The help text's exit-code section.
inline constexpr const char* kExitCodeHelp =
    "Exit codes:\n"
    "  0  everything checked passed (read-only subcommands: the document was produced)\n"
    "  1  a check failed\n"
    "  2  usage error, unreadable input (also a run that overran --timeout), or internal error\n"
    "     (also out of descriptors, memory or processes: never a verdict)\n"
    "  3  nothing failed, but something could not be checked (skip)\n"
    "  A warning (warn: costs performance or robustness, does not stop RDMI) exits 0;\n"
    "  check --fail-on-warn makes it a failure (exit 1).\n"
    "  129, 130, 131, 143  ended by SIGHUP, SIGINT, SIGQUIT, SIGTERM (children killed;\n"
    "                      --json: error document)\n"
    "  138, 140, 142, 152  ended by SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, the same way\n"
    "  141  stdout closed before the document was written (SIGPIPE); nothing on stderr\n";

}  // namespace rdmi::cli
