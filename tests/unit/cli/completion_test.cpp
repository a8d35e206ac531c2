// Completion answers read from the option model: which option or value the cursor is in, what
// each value kind offers, the --opt=value form, helper names and the --root a device list reads.
#include "cli/completion.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/option_model.hpp"

namespace rdmi::cli {
namespace {

using Words = std::vector<std::string>;

struct Recorded {
    std::vector<std::string> roots;
};

CompletionAnswer ask(const Words& words, Recorded* recorded = nullptr) {
    return complete_words(words, [recorded](const std::string& root) {
        if (recorded != nullptr) recorded->roots.push_back(root);
        return std::vector<std::string>{"0000:03:00.0", "mlx5_0", "mlx5_1"};
    });
}

bool offers(const CompletionAnswer& answer, std::string_view word) {
    return std::ranges::find(answer.candidates, word) != answer.candidates.end();
}

TEST_CASE("completion: subcommands, and none of the hidden ones") {
    const auto answer = ask({"rdmi-probe", ""});
    CHECK(answer.directive == CompletionDirective::words);
    CHECK(answer.candidates.size() == command_names().size());
    CHECK_FALSE(offers(answer, "__complete"));
    CHECK(ask({"rdmi-probe", "sy"}).candidates == std::vector<std::string>{"symbols"});
}

TEST_CASE("completion: every option the model gives a command, its globals included") {
    for (const auto command : command_names()) {
        const auto answer = ask({"rdmi-probe", std::string(command), "-"});
        for (const auto* option : own_options(command)) {
            if (!option->positional) CHECK_MESSAGE(offers(answer, option->name), option->name);
        }
        for (const auto* option : global_options(command)) CHECK(offers(answer, option->name));
    }
    // A given option is not offered again unless it repeats.
    const auto again = ask({"rdmi-probe", "--json", "report", "--"});
    CHECK_FALSE(offers(again, "--json"));
    CHECK(offers(ask({"rdmi-probe", "-v", "report", "--"}), "--verbose"));
}

TEST_CASE("completion: helper names stand for their subcommand, forced option left out") {
    for (const auto& helper : helper_names()) {
        const auto answer = ask({std::string(helper.name), "--"});
        INFO(std::string(helper.name));
        CHECK(offers(answer, "--json"));
        for (const auto* option : own_options(helper.command)) {
            if (option->positional) continue;
            const bool forced = std::string_view(helper.forced).starts_with(option->name + "=");
            CHECK(offers(answer, option->name) != forced);
        }
    }
}

TEST_CASE("completion: choice values, after a space and in the --opt=value form") {
    CHECK(ask({"rdmi-probe", "--color", ""}).candidates ==
          std::vector<std::string>{"always", "auto", "never"});
    const auto joined = ask({"rdmi-probe", "--color=al"});
    CHECK(joined.prefix == "--color=");
    CHECK(joined.candidates == std::vector<std::string>{"always"});
    CHECK(ask({"rdmi-probe", "check", "--format", ""}).candidates ==
          std::vector<std::string>{"github", "json", "junit", "text"});
    // A global option's value is skipped on the way to the subcommand.
    CHECK(ask({"rdmi-probe", "--root", "/x", "st"}).candidates ==
          std::vector<std::string>{"state"});
}

TEST_CASE("completion: path kinds are directives to the shell") {
    CHECK(ask({"rdmi-probe", "--output", ""}).directive == CompletionDirective::files);
    CHECK(ask({"rdmi-probe", "--doca-prefix", "/o"}).directive == CompletionDirective::directories);
    const auto root = ask({"rdmi-probe", "--root=/tm"});
    CHECK(root.directive == CompletionDirective::roots);
    CHECK(root.prefix == "--root=");
    CHECK(ask({"rdmi-probe", "diff", "a.json", ""}).directive == CompletionDirective::files);
    // A number offers nothing, not file names.
    const auto number = ask({"rdmi-probe", "--timeout", ""});
    CHECK(number.directive == CompletionDirective::words);
    CHECK(number.candidates.empty());
}

TEST_CASE("completion: DOCA error names, check ids, schema names, call names") {
    const auto errors = ask({"rdmi-probe", "error", "DOCA_ERROR_BAD_S"});
    CHECK(errors.candidates == std::vector<std::string>{"DOCA_ERROR_BAD_STATE"});
    CHECK(ask({"rdmi-probe", "error", "BAD_S"}).candidates ==
          std::vector<std::string>{"BAD_STATE"});
    CHECK(offers(ask({"rdmi-probe", "error", ""}), "DOCA_ERROR_NOT_FOUND"));
    const auto ids = ask({"rdmi-probe", "check", "--explain", ""});
    CHECK(offers(ids, "doca-prefix"));
    CHECK(std::ranges::none_of(
        ids.candidates, [](const std::string& id) { return id.find('<') != std::string::npos; }));
    CHECK(offers(ask({"rdmi-probe", "schema", ""}), "doca-env"));
    CHECK(offers(ask({"rdmi-probe", "check", "--waive-source", ""}), "bfb"));
    CHECK_FALSE(ask({"rdmi-probe", "error", "--call", "doca_"}).candidates.empty());
}

TEST_CASE("completion: devices come from the --root given earlier, dequoted, or from /") {
    Recorded recorded;
    const auto live = ask({"rdmi-probe", "check", "--require-device", "mlx"}, &recorded);
    CHECK(live.candidates == std::vector<std::string>{"mlx5_0", "mlx5_1"});
    (void)ask({"rdmi-probe", "--root", "'my root'", "check", "--require-device=0000:"}, &recorded);
    (void)ask({"rdmi-probe", "--root=a\\ b", "check", "--require-device", ""}, &recorded);
    CHECK(recorded.roots == std::vector<std::string>{"/", "my root", "a b"});
}

TEST_CASE(
    "completion: an option whose value may be left out takes the next word unless an option") {
    CHECK(ask({"rdmi-probe", "check", "--require-device", ""}).candidates ==
          std::vector<std::string>{"0000:03:00.0", "mlx5_0", "mlx5_1"});
    CHECK(offers(ask({"rdmi-probe", "check", "--require-device", "--require-d"}), "--require-dpa"));
    // "--require-dpa" after it is an option, not its value: the next word is a new one.
    CHECK(offers(ask({"rdmi-probe", "check", "--require-device", "--require-dpa", "--f"}),
                 "--format"));
}

TEST_CASE("completion: shell quoting is removed as the shell would") {
    CHECK(shell_dequote("my\\ dir") == "my dir");
    CHECK(shell_dequote("'a b'c") == "a bc");
    CHECK(shell_dequote("\"a\\\"b\\n\"") == "a\"b\\n");
    CHECK(shell_dequote("\"unterminated") == "unterminated");
}

}  // namespace
}  // namespace rdmi::cli
