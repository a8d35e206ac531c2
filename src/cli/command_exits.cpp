// Each command's exit meanings, as docs/commands.md and docs/options.md state them.
#include "cli/command_exits.hpp"

#include <array>

namespace rdmi::cli {
namespace {

constexpr std::string_view kUsage =
    "usage error, unreadable input, a run that overran --timeout, or an internal error";

constexpr std::array kProgram{
    ExitMeaning{"0",
                "everything checked passed (read-only subcommands: the document was produced)"},
    ExitMeaning{"1", "a check failed"},
    ExitMeaning{"2",
                "usage error, unreadable input (also a run that overran --timeout), or "
                "internal error (also out of descriptors, memory or processes: never a "
                "verdict)"},
    ExitMeaning{"3", "nothing failed, but something could not be checked (skip)"},
    ExitMeaning{"129, 130, 131, 143",
                "ended by SIGHUP, SIGINT, SIGQUIT, SIGTERM (children killed; --json: error "
                "document)"},
    ExitMeaning{"138, 140, 142, 152", "ended by SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, the same way"},
    ExitMeaning{"141",
                "stdout closed before the document was written (SIGPIPE); nothing on stderr"},
};

constexpr std::array kVerdict{
    ExitMeaning{"0", "every check passed (a warning or an info passes)"},
    ExitMeaning{"1", "a check failed"},
    ExitMeaning{"2", kUsage},
    ExitMeaning{"3", "nothing failed, but something could not be checked (skip)"},
};
constexpr std::array kCheck{
    ExitMeaning{"0", "every requirement passed (a warning too, unless --fail-on-warn)"},
    ExitMeaning{"1", "a requirement failed (a warning too, with --fail-on-warn)"},
    ExitMeaning{"2", kUsage},
    ExitMeaning{"3", "nothing failed, but a requirement could not be checked (skip)"},
};
constexpr std::array kLoopback{
    ExitMeaning{"0", "every level asked for passed"},
    ExitMeaning{"1", "a level failed"},
    ExitMeaning{"2", kUsage},
    ExitMeaning{"3", "a level could not be run here (skip)"},
};
constexpr std::array kSymbols{
    ExitMeaning{"0", "the document's result is not fail (a skip is said in the document)"},
    ExitMeaning{"1",
                "a check failed: a needed symbol is missing, or an experimental call is not "
                "accepted"},
    ExitMeaning{"2", kUsage},
    ExitMeaning{"3", "pkg-config has no such module (no DOCA here): nothing could be checked"},
};
constexpr std::array kDocument{
    ExitMeaning{"0", "the document was produced"},
    ExitMeaning{"2", kUsage},
};
constexpr std::array kDiff{
    ExitMeaning{"0", "the documents are equal"},
    ExitMeaning{"1", "the documents differ"},
    ExitMeaning{"2", "usage error, an unreadable input, or documents of different kinds"},
};

struct CommandExits {
    std::string_view command;
    std::span<const ExitMeaning> meanings;
};

constexpr std::array kCommandExits{
    CommandExits{"", kProgram},          CommandExits{"report", kVerdict},
    CommandExits{"loopback", kLoopback}, CommandExits{"symbols", kSymbols},
    CommandExits{"env", kDocument},      CommandExits{"caps", kDocument},
    CommandExits{"state", kDocument},    CommandExits{"schema", kDocument},
    CommandExits{"diff", kDiff},         CommandExits{"check", kCheck},
    CommandExits{"gather", kDocument},   CommandExits{"error", kDocument},
};

}  // namespace

std::span<const ExitMeaning> exit_meanings(std::string_view command) {
    for (const auto& entry : kCommandExits) {
        if (entry.command == command) return entry.meanings;
    }
    return {};
}

}  // namespace rdmi::cli
