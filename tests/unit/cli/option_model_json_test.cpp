// The option model as gen_docs.py reads it: every option with every field, nothing hidden.
#include "cli/option_model_json.hpp"

#include <doctest/doctest.h>

#include "cli/command.hpp"

namespace rdmi::cli {

namespace {

json::Json model_document() {
    const auto commands = make_commands();
    std::vector<CommandSummary> summaries;
    for (const auto& command : commands) summaries.push_back({command->name(), command->summary()});
    return option_model_json(summaries);
}

}  // namespace

TEST_CASE("the option model document holds every option of the model, once") {
    const json::Json doc = model_document();
    std::size_t listed = doc["global"].size();
    for (const auto& command : doc["commands"]) listed += command["options"].size();
    // A global option belongs to the top level only; each own option to each command taking it.
    std::size_t expected = global_options().size();
    for (const auto name : command_names()) expected += own_options(name).size();
    CHECK(listed == expected);
    CHECK(doc["commands"].size() == command_names().size());
    CHECK(doc["default_command"] == "report");
}

TEST_CASE("an option's exclusions are a list of names, never text inside its placeholder") {
    const json::Json doc = model_document();
    bool found = false;
    for (const auto& command : doc["commands"]) {
        if (command["name"] != "check") continue;
        for (const auto& option : command["options"]) {
            if (option["name"] != "--explain") continue;
            found = true;
            CHECK(option["excludes"] == json::Json::array({"--list-checks"}));
            CHECK(option["placeholder"] == "ID");
            CHECK(option["kind"] == "check_id");
            CHECK(option["head"] == "--explain ID");
        }
    }
    CHECK(found);
}

TEST_CASE("the document carries each command's exit codes, the helper names and every field") {
    const json::Json doc = model_document();
    for (const auto& command : doc["commands"]) CHECK_FALSE(command["exits"].empty());
    CHECK(doc["helpers"].size() == helper_names().size());
    CHECK(doc["exits"].size() >= 4);
    const json::Json& timeout = doc["global"][4];
    CHECK(timeout["name"] == "--timeout");
    for (const char* field :
         {"name",          "short_name",     "kind",       "placeholder", "choices",
          "minimum",       "maximum",        "help",       "default",     "help_shows_default",
          "global",        "commands",       "positional", "required",    "required_unless",
          "repeatable",    "value_optional", "excludes",   "exposure",    "policy_key",
          "no_policy_key", "head",           "text"})
        CHECK(timeout.contains(field));
    CHECK(timeout["minimum"] == 0.001);
    CHECK(timeout["kind"] == "seconds");
}

}  // namespace rdmi::cli
