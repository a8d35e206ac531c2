// The option model and the parser cannot drift: every option CLI11 is given is in the model, with
// the model's placeholder, arity and requiredness, and every option of the model reaches CLI11;
// the MCP input schema is read from the same table; check's flags and the policy file's keys map
// onto each other.
#include "cli/option_model.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli/app.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/option_binding.hpp"
#include "cli/session.hpp"
#include "contract/embedded_schemas.hpp"

namespace rdmi::cli {
namespace {

/// The name CLI11 knows an option by: its long name, or a positional's name.
std::string parser_name(const CLI::Option& option) {
    if (!option.get_lnames().empty()) return "--" + option.get_lnames().front();
    return option.get_name(true, false);
}

/// Compares what `app` declares (help aside) with the model's `expected` options.
void check_same(const CLI::App& app, const std::vector<const OptionSpec*>& expected,
                const std::string& where) {
    std::set<std::string> in_parser;
    for (const CLI::Option* option : app.get_options()) {
        const std::string name = parser_name(*option);
        if (name == "--help" || name == "--version") continue;
        in_parser.insert(name);
        const auto spec = std::find_if(expected.begin(), expected.end(),
                                       [&](const OptionSpec* s) { return s->name == name; });
        INFO(where << " " << name);
        REQUIRE_MESSAGE(spec != expected.end(), "CLI11 knows it, the option model does not");
        const OptionSpec& s = **spec;
        CHECK(option->get_description() == s.help);
        CHECK(option->get_required() == s.required);
        CHECK(option->nonpositional() == !s.positional);
        if (!s.short_name.empty()) {
            REQUIRE(!option->get_snames().empty());
            CHECK("-" + option->get_snames().front() == s.short_name);
        } else {
            CHECK(option->get_snames().empty());
        }
        if (s.kind == ValueKind::flag) {
            CHECK(option->get_expected_max() == 0);
            continue;
        }
        CHECK(option->get_type_name().starts_with(s.placeholder));
        CHECK((option->get_expected_max() > 1) == s.repeatable);
        CHECK((option->get_expected_min() == 0) == s.value_optional);
        if (s.kind == ValueKind::choice) {
            for (const auto& choice : s.choices)
                CHECK(option->get_type_name().find(choice) != std::string::npos);
        }
    }
    for (const OptionSpec* spec : expected) {
        INFO(where << " " << spec->name);
        CHECK_MESSAGE(in_parser.count(spec->name) == 1, "in the option model, not given to CLI11");
    }
}

}  // namespace

TEST_CASE("every subcommand's parser declares exactly the options the model gives it") {
    const auto commands = make_commands();
    REQUIRE(commands.size() == command_names().size());
    for (std::size_t i = 0; i < commands.size(); ++i) {
        Command& command = *commands[i];
        CHECK(command.name() == command_names()[i]);
        CLI::App app;
        CLI::App* sub = app.add_subcommand(std::string(command.name()));
        command.add_options(*sub);
        check_same(*sub, own_options(command.name()), std::string(command.name()));
    }
}

TEST_CASE("the top-level parser declares exactly the model's global options") {
    CLI::App app;
    GlobalOptions options;
    add_global_options(app, options);
    check_same(app, global_options(), "top level");
}

TEST_CASE("an option the model does not declare cannot be bound") {
    CLI::App app;
    std::string value;
    CHECK_THROWS_AS(add_modelled(app, "env", "--no-such-option", value), std::logic_error);
    // A command's own option is not a global one, and the reverse.
    CHECK_THROWS_AS(add_modelled(app, "", "--strict-contract", value), std::logic_error);
    CHECK_THROWS_AS(add_modelled(app, "env", "--root", value), std::logic_error);
}

TEST_CASE("each helper name stands for a command, and the option it implies is that command's") {
    for (const auto& helper : helper_names()) {
        INFO(helper.name);
        CHECK(std::find(command_names().begin(), command_names().end(), helper.command) !=
              command_names().end());
        if (helper.forced.empty()) continue;
        const std::string_view forced = helper.forced;
        const std::string option(forced.substr(0, forced.find('=')));
        const OptionSpec* spec = find_option(helper.command, option);
        REQUIRE(spec != nullptr);
        const std::string value(forced.substr(forced.find('=') + 1));
        CHECK(std::find(spec->choices.begin(), spec->choices.end(), value) != spec->choices.end());
    }
}

TEST_CASE("an option is declared once per command") {
    for (const auto command : command_names()) {
        std::set<std::string> seen;
        for (const auto* option : global_options(command)) CHECK(seen.insert(option->name).second);
        for (const auto* option : own_options(command)) {
            INFO(command << " " << option->name);
            CHECK(seen.insert(option->name).second);
        }
    }
}

TEST_CASE("a tool's input schema: the command's arguments, never the command line's") {
    const auto env = input_schema("env");
    CHECK(env["type"] == "object");
    CHECK(env["additionalProperties"] == false);
    const auto& properties = env["properties"];
    for (const char* present : {"root", "doca_prefix", "timeout", "strict_contract"})
        CHECK_MESSAGE(properties.contains(present), present);
    for (const char* absent :
         {"output", "json", "color", "quiet", "verbose", "allow_untrusted_libs",
          "allow_foreign_links", "no_landlock", "no_syscall_filter"})
        CHECK_MESSAGE(!properties.contains(absent), absent);
    CHECK(properties["root"]["type"] == "string");
    CHECK(properties["root"]["pattern"] == "^/");
    CHECK(properties["root"]["default"] == "/");
    CHECK(properties["timeout"]["type"] == "number");
    CHECK(properties["timeout"]["minimum"] == 0.001);
    CHECK(properties["timeout"]["maximum"] == 3600.0);
    CHECK(properties["timeout"]["default"] == 10.0);
    CHECK(properties["strict_contract"]["type"] == "boolean");
    CHECK(!env.contains("required"));

    const auto loopback = input_schema("loopback");
    CHECK(loopback["properties"]["level"]["type"] == "integer");
    CHECK(loopback["properties"]["level"]["minimum"] == 0);
    CHECK(loopback["properties"]["level"]["maximum"] == 3);
    CHECK(loopback["properties"]["level"]["default"] == 3);
    CHECK(!loopback["properties"].contains("trace"));
    CHECK(!loopback["properties"].contains("plugin"));

    const auto state = input_schema("state");
    CHECK(state["properties"]["side"]["enum"] == nlohmann::ordered_json({"host", "dpu"}));

    const auto error = input_schema("error");
    CHECK(error["required"] == nlohmann::ordered_json({"error"}));
    CHECK(error["properties"]["error"]["type"] == "string");

    const auto diff = input_schema("diff");
    CHECK(diff["required"] == nlohmann::ordered_json({"a", "b"}));
    CHECK(diff["properties"]["a"]["pattern"] == "^/");

    const auto symbols = input_schema("symbols");
    CHECK(symbols["properties"]["allow_experimental"]["type"] == "array");
    CHECK(symbols["properties"]["allow_experimental"]["items"]["type"] == "string");

    CHECK_THROWS_AS((void)input_schema("no-such-command"), std::invalid_argument);
}

TEST_CASE("-d/--device: a repeatable device argument of report, env, caps and state only") {
    for (const char* command : {"report", "env", "caps", "state"}) {
        CAPTURE(command);
        const OptionSpec* by_short = find_option(command, "-d");
        REQUIRE(by_short != nullptr);
        CHECK(by_short == find_option(command, "--device"));
        CHECK(by_short->kind == ValueKind::device);
        CHECK(by_short->repeatable);
        const auto device = input_schema(command)["properties"]["device"];
        CHECK(device["type"] == "array");
        CHECK(device["items"]["type"] == "string");
    }
    // check keeps --require-device; loopback's --device stays one device, with no -d.
    CHECK(find_option("check", "--device") == nullptr);
    CHECK(find_option("check", "-d") == nullptr);
    REQUIRE(find_option("loopback", "--device") != nullptr);
    CHECK(!find_option("loopback", "--device")->repeatable);
    CHECK(find_option("loopback", "-d") == nullptr);
}

TEST_CASE("every tool argument has a description and a known JSON type") {
    for (const auto command : command_names()) {
        const auto schema = input_schema(command);
        for (const auto& [name, property] : schema["properties"].items()) {
            // A copy: clang does not let doctest's INFO capture a structured binding.
            const std::string argument = name;
            INFO(command << " " << argument);
            CHECK(property.contains("description"));
            CHECK(!property["description"].get<std::string>().empty());
            const std::string type = property["type"];
            CHECK((type == "string" || type == "boolean" || type == "integer" || type == "number" ||
                   type == "array"));
        }
    }
}

// check's structured arguments in MCP are the policy file's keys: each key is one flag of the
// model, and each check option is a policy key or says why it is none.
TEST_CASE("check's flags and the policy file's keys map onto each other") {
    const auto* text = contract::find_embedded_schema("rdmi-probe-policy");
    REQUIRE(text != nullptr);
    const auto policy = nlohmann::ordered_json::parse(text->text);
    // Keys that describe the file, not a requirement: no flag can stand for them.
    const std::set<std::string> about_the_file{"$schema", "description", "schema_version"};
    std::set<std::string> keyed;
    for (const auto* option : own_options("check")) {
        INFO(option->name);
        CHECK_MESSAGE(option->policy_key.empty() != option->no_policy_key.empty(),
                      "a check option has a policy key or a reason why not, not both");
        if (option->policy_key.empty()) continue;
        CHECK_MESSAGE(policy["properties"].contains(option->policy_key),
                      "its policy key is not in the published policy schema");
        CHECK(keyed.insert(option->policy_key).second);
    }
    for (const auto& [key, unused] : policy["properties"].items()) {
        const std::string policy_key = key;  // INFO may not capture a structured binding (clang)
        INFO(policy_key);
        if (about_the_file.count(key) != 0) continue;
        CHECK_MESSAGE(keyed.count(key) == 1, "a policy key no check flag stands for");
    }
    // Only check's options speak of the policy.
    for (const auto& option : option_model()) {
        if (applies_to(option, "check") && !option.global) continue;
        CHECK(option.policy_key.empty());
        CHECK(option.no_policy_key.empty());
    }
}

}  // namespace rdmi::cli
