// The option model as one JSON document, for scripts/gen_docs.py: the man page, docs/options.md
// and the completions are written from what the parser takes, never from scraped --help text.
#pragma once

#include <span>
#include <string_view>

#include "cli/help_text.hpp"
#include "json/json_common.hpp"

namespace rdmi::cli {

/// The hidden subcommand that prints option_model_json(); not in help, not an MCP tool.
inline constexpr std::string_view kOptionModelCommand = "__option-model";

/// The stable name of a value kind ("file", "doca_error", ...).
[[nodiscard]] std::string_view kind_name(ValueKind kind);

/// Every global option, every subcommand (name, summary, own options, exit meanings), the
/// helper names, the program's exit meanings, each option with every OptionSpec field and its
/// help as --help shows it ("head", "text").
[[nodiscard]] json::Json option_model_json(std::span<const CommandSummary> commands);

}  // namespace rdmi::cli
