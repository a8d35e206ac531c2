// What each exit code means for each subcommand: the lines its --help and the man page print.
#pragma once

#include <span>
#include <string_view>

namespace rdmi::cli {

/// One exit code and what it says, in the words of one subcommand.
struct ExitMeaning {
    std::string_view codes;  ///< "0", or the codes that share the meaning ("138, 140, 142")
    std::string_view meaning;
};

/// The exit codes `command` can end with besides the signals' (which every command shares),
/// lowest first; "" gives the whole program's, the signals' included, as the top-level help
/// and the man page list them. Empty for an unknown command.
[[nodiscard]] std::span<const ExitMeaning> exit_meanings(std::string_view command);

/// What the program-wide list adds in words: a warning's exit, and how check changes it.
inline constexpr std::string_view kWarningExitNote =
    "A warning (warn: costs performance or robustness, does not stop RDMI) exits 0; check "
    "--fail-on-warn makes it a failure (exit 1).";

}  // namespace rdmi::cli
