// --help, `help [SUBCOMMAND]` and helper names' --help, written from the option model and
// wrapped to the terminal, so that help names exactly the options the parser takes.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "cli/option_model.hpp"

namespace rdmi::cli {

/// A subcommand as help lists it.
struct CommandSummary {
    std::string_view name;
    std::string_view summary;
};

/// `mcp`'s line: the MCP server parses its own options (src/mcp/), so it is no Command.
inline constexpr CommandSummary kMcpSummary{
    "mcp",
    "a Model Context Protocol server on stdin/stdout: each tools/call runs a subcommand in a "
    "child process (rdmi-probe mcp --help)"};

/// The narrowest help is written for: below it no option and its text fit side by side.
inline constexpr std::size_t kNarrowestHelp = 40;

/// The option's name column: "-v, --verbose", "--timeout SECONDS", "--require-module TEXT ...",
/// "--require-device [TEXT]", "ERROR".
[[nodiscard]] std::string option_head(const OptionSpec& option);

/// The option's help with what the parser enforces after it: its choices, range, default,
/// the options it excludes.
[[nodiscard]] std::string option_text(const OptionSpec& option);

/// The top-level help: usage, the global options, the default subcommand's, every subcommand
/// (`mcp` and `help` included) and the exit codes. `width` is the columns to fill.
[[nodiscard]] std::string program_help(std::span<const CommandSummary> commands, std::size_t width);

/// A subcommand's help as `program` ("rdmi-probe", or the helper name that stands for it): its
/// positionals, its own options, the global options that apply to it and its exit codes. A
/// helper's usage line is the helper alone ("Usage: doca-env [OPTIONS]") and leaves out the
/// option its name implies.
[[nodiscard]] std::string command_help(std::string_view program, const CommandSummary& command,
                                       std::size_t width);

}  // namespace rdmi::cli
