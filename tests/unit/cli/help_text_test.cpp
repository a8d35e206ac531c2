// Help from the option model: every option a command takes is in its help, globals included,
// no line is wider than asked, and each command names only its own exit codes.
#include "cli/help_text.hpp"

#include <doctest/doctest.h>

#include "cli/command.hpp"
#include "cli/command_exits.hpp"
#include "text/text.hpp"

namespace rdmi::cli {

namespace {

std::size_t widest_line(const std::string& text) {
    std::size_t widest = 0;
    for (const auto line : split_lines(text)) widest = std::max(widest, line.size());
    return widest;
}

std::vector<CommandSummary> every_command(const std::vector<std::unique_ptr<Command>>& commands) {
    std::vector<CommandSummary> out;
    for (const auto& command : commands) out.push_back({command->name(), command->summary()});
    return out;
}

}  // namespace

TEST_CASE("a subcommand's help lists its own options and every global one that applies") {
    const auto commands = make_commands();
    for (const auto& command : commands) {
        const std::string help =
            command_help("rdmi-probe", {command->name(), command->summary()}, 100);
        INFO(command->name());
        for (const auto* option : own_options(command->name()))
            CHECK(help.find(option_head(*option)) != std::string::npos);
        for (const auto* option : global_options(command->name()))
            CHECK(help.find(option_head(*option)) != std::string::npos);
    }
}

TEST_CASE("a helper name's help keeps its usage line and shows the global options") {
    const std::string help = command_help("doca-env", {"env", "the doca-env document"}, 100);
    CHECK(help.find("Usage: doca-env [OPTIONS]\n") != std::string::npos);
    CHECK(help.find("doca-env env") == std::string::npos);
    for (const std::string_view global :
         {"--json", "--root DIR", "--output FILE", "--timeout SECONDS"})
        CHECK(help.find(global) != std::string::npos);
    CHECK(help.find("--strict-contract") != std::string::npos);
    CHECK(help.find("-V, --version") != std::string::npos);
}

TEST_CASE("a helper that implies an option does not offer it again") {
    const std::string help =
        command_help("doca-collect-host-state", {"state", "the collect-state document"}, 100);
    CHECK(help.find("--side") == help.find("--side=host"));
    CHECK(help.find("Usage: doca-collect-host-state [OPTIONS]") != std::string::npos);
}

TEST_CASE("help fits the width it is given, but for a word no line can hold") {
    const auto commands = make_commands();
    const auto summaries = every_command(commands);
    for (const std::size_t width : {40U, 60U, 80U, 100U, 132U}) {
        INFO(width);
        CHECK(widest_line(program_help(summaries, width)) <= width);
        for (const auto& command : summaries) {
            // The longest unbreakable word of check's help is its consistency rule's
            // applications_version: well under 40 columns.
            CHECK(widest_line(command_help("rdmi-probe", command, width)) <= width);
        }
    }
    // Narrower than 40 is written for 40.
    CHECK(widest_line(program_help(summaries, 10)) <= kNarrowestHelp);
}

TEST_CASE("the top-level help lists every subcommand, mcp and help, and the exit codes") {
    const auto commands = make_commands();
    auto summaries = every_command(commands);
    summaries.push_back(kMcpSummary);
    const std::string help = program_help(summaries, 100);
    for (const auto name : command_names())
        CHECK(help.find("\n  " + std::string(name) + " ") != std::string::npos);
    CHECK(help.find("\n  mcp ") != std::string::npos);
    CHECK(help.find("\n  help ") != std::string::npos);
    CHECK(help.find("-V, --version") != std::string::npos);
    CHECK(help.find("Exit codes:") != std::string::npos);
    CHECK(help.find("129, 130, 131, 143") != std::string::npos);
    // The default subcommand's options, which work without naming it.
    CHECK(help.find("--format TEXT") != std::string::npos);
}

TEST_CASE("each subcommand's help names only its own exit codes") {
    const std::string schema = command_help("rdmi-probe", {"schema", "print a schema"}, 100);
    CHECK(schema.find("\n  0 ") != std::string::npos);
    CHECK(schema.find("\n  1 ") == std::string::npos);
    CHECK(schema.find("\n  3 ") == std::string::npos);
    const std::string diff = command_help("rdmi-probe", {"diff", "compare"}, 100);
    CHECK(diff.find("the documents differ") != std::string::npos);
    CHECK(diff.find("129, 130") == std::string::npos);
    for (const auto name : command_names()) CHECK_FALSE(exit_meanings(name).empty());
}

TEST_CASE(
    "an option's text carries what the parser enforces: choices, range, default, exclusions") {
    const OptionSpec* color = find_option("", "--color");
    REQUIRE(color != nullptr);
    CHECK(option_text(*color).find("[one of: auto, always, never; default: auto]") !=
          std::string::npos);
    const OptionSpec* timeout = find_option("", "--timeout");
    REQUIRE(timeout != nullptr);
    CHECK(option_text(*timeout).find("from 0.001 to 3600; default: 10") != std::string::npos);
    const OptionSpec* explain = find_option("check", "--explain");
    REQUIRE(explain != nullptr);
    CHECK(option_text(*explain).find("[not with --list-checks]") != std::string::npos);
    CHECK(option_head(*find_option("", "-v")) == "-v, --verbose");
    CHECK(option_head(*find_option("check", "--require-module")) == "--require-module TEXT ...");
    CHECK(option_head(*find_option("check", "--require-device")) == "--require-device [TEXT]");
}

}  // namespace rdmi::cli
