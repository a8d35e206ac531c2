// Help from the option model: CLI11's formatter knows only the options of one parser, so a
// subcommand's help left out the global ones it takes (--json, --root, --output, ...).
#include "cli/help_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "build_info.hpp"
#include "cli/command_exits.hpp"
#include "text/text.hpp"
#include "text/wrap.hpp"

namespace rdmi::cli {
namespace {

constexpr std::string_view kHelpLine = "print this help and exit";
constexpr std::string_view kVersionLine = "print the program's name and version and exit";

std::string shown_number(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);  // NOLINT(cert-err33-c)
    return buffer;
}

// The column option texts start at: CLI11's 30 where the terminal is wide enough for it.
std::size_t text_column(std::size_t width) {
    return width >= 80 ? 30 : std::max<std::size_t>(16, width / 3);
}

std::string help_block(std::string_view head, std::string_view body, std::size_t width) {
    return text::hanging(head, body, text_column(width), width);
}

// Text that is not an option's: headings, usage and summary lines, wrapped like the rest.
std::string paragraph(std::string_view text, std::size_t width) {
    std::string out;
    for (const auto& line : text::wrap_words(text, width)) out += line + '\n';
    return out;
}

const HelperName* helper_called(std::string_view program) {
    for (const auto& helper : helper_names()) {
        if (helper.name == program) return &helper;
    }
    return nullptr;
}

// The option a helper's name implies (doca-collect-host-state: --side): giving it again is an
// error, so its help does not offer it.
bool forced_by(const HelperName* helper, const OptionSpec& option) {
    if (helper == nullptr || helper->forced.empty()) return false;
    return helper->forced.substr(0, helper->forced.find('=')) == option.name;
}

std::string usage_positionals(std::string_view command) {
    std::string out;
    for (const auto* option : own_options(command)) {
        if (!option->positional) continue;
        out += option->required ? " " + option->name : " [" + option->name + "]";
    }
    return out;
}

std::string exit_block(std::string_view command, std::size_t width) {
    std::string out = "Exit codes:\n";
    // The codes are short: their text starts at 22, not 30 ("129, 130, 131, 143" fits).
    for (const auto& exit : exit_meanings(command))
        out += text::hanging(exit.codes, exit.meaning, 22, width);
    return out;
}

}  // namespace

std::string option_head(const OptionSpec& option) {
    if (option.positional) return option.name;
    std::string head =
        option.short_name.empty() ? option.name : option.short_name + ", " + option.name;
    if (option.kind != ValueKind::flag) {
        head += option.value_optional ? " [" + option.placeholder + "]" : " " + option.placeholder;
        if (option.repeatable) head += " ...";
    }
    return head;
}

std::string option_text(const OptionSpec& option) {
    std::vector<std::string> notes;
    if (option.kind == ValueKind::choice) notes.push_back("one of: " + join(option.choices));
    if ((option.kind == ValueKind::integer || option.kind == ValueKind::seconds) &&
        option.minimum && option.maximum)
        notes.push_back("from " + shown_number(*option.minimum) + " to " +
                        shown_number(*option.maximum));
    if (option.help_shows_default) notes.push_back("default: " + option.default_value);
    if (!option.excludes.empty()) notes.push_back("not with " + join(option.excludes, " or "));
    if (option.required) notes.push_back("required");
    std::string text = option.help;
    if (!notes.empty()) text += " [" + join(notes, "; ") + "]";
    return text;
}

std::string program_help(std::span<const CommandSummary> commands, std::size_t width) {
    width = std::max(width, kNarrowestHelp);
    const std::string_view tool = build_info::kToolName;
    std::string out = paragraph(
        std::string(tool) + ": environment and capability probe for NVIDIA DOCA RDMI", width);
    out += paragraph("Usage: " + std::string(tool) + " [OPTIONS] [SUBCOMMAND] [SUBCOMMAND OPTIONS]",
                     width);
    out += "       " + std::string(tool) + " help [SUBCOMMAND]\n\nOptions:\n";
    out += help_block("-h, --help", kHelpLine, width);
    out += help_block("-V, --version", kVersionLine, width);
    for (const auto* option : global_options())
        out += help_block(option_head(*option), option_text(*option), width);
    const std::string_view fallback = command_names().front();
    out += "\n" + paragraph("Options of " + std::string(fallback) +
                                ", the default subcommand (they may be given without naming it):",
                            width);
    for (const auto* option : own_options(fallback)) {
        if (!option->positional)
            out += help_block(option_head(*option), option_text(*option), width);
    }
    out += "\nSubcommands:\n";
    for (const auto& command : commands) out += help_block(command.name, command.summary, width);
    out += help_block("help", "this help, or a subcommand's (help SUBCOMMAND)", width);
    out += "\n" + exit_block("", width);
    for (const auto& line : text::wrap_words(kWarningExitNote, width - 2))
        out += "  " + line + '\n';
    return out;
}

std::string command_help(std::string_view program, const CommandSummary& command,
                         std::size_t width) {
    width = std::max(width, kNarrowestHelp);
    const HelperName* helper = helper_called(program);
    std::string out = paragraph(command.summary, width);
    std::string usage = "Usage: " + std::string(program);
    if (helper == nullptr) {
        const bool fallback = command.name == command_names().front();
        usage +=
            fallback ? " [" + std::string(command.name) + "]" : " " + std::string(command.name);
    }
    out += paragraph(usage + " [OPTIONS]" + usage_positionals(command.name), width);
    if (helper != nullptr && !helper->forced.empty()) {
        out += paragraph("(" + std::string(program) + " is rdmi-probe " +
                             std::string(command.name) + " " + std::string(helper->forced) + ")",
                         width);
    }
    std::string positionals;
    std::string options;
    for (const auto* option : own_options(command.name)) {
        if (forced_by(helper, *option)) continue;
        (option->positional ? positionals : options) +=
            help_block(option_head(*option), option_text(*option), width);
    }
    if (!positionals.empty()) out += "\nPositionals:\n" + positionals;
    out += "\nOptions:\n";
    out += help_block("-h, --help", kHelpLine, width);
    out += options;
    out += "\n" + paragraph("Global options (also before the subcommand):", width);
    if (helper != nullptr) out += help_block("-V, --version", kVersionLine, width);
    for (const auto* option : global_options(command.name))
        out += help_block(option_head(*option), option_text(*option), width);
    out += "\n" + exit_block(command.name, width);
    return out;
}

}  // namespace rdmi::cli
