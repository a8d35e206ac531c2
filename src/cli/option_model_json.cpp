// Every OptionSpec field, so that a generator never has to guess what --help left out (the
// exclusions CLI11 printed as "Excludes: --explain" inside the placeholder column).
#include "cli/option_model_json.hpp"

#include "build_info.hpp"
#include "cli/command_exits.hpp"

namespace rdmi::cli {
namespace {

std::string_view exposure_name(Exposure exposure) {
    switch (exposure) {
        case Exposure::tool_argument:
            return "tool_argument";
        case Exposure::cli_only:
            return "cli_only";
        case Exposure::server_policy:
            return "server_policy";
    }
    return "tool_argument";
}

json::Json option_json(const OptionSpec& option) {
    json::Json out = json::Json::object();
    out["name"] = option.name;
    out["short_name"] = option.short_name;
    out["kind"] = kind_name(option.kind);
    out["placeholder"] = option.placeholder;
    out["choices"] = option.choices;
    out["minimum"] = option.minimum ? json::Json(*option.minimum) : json::Json(nullptr);
    out["maximum"] = option.maximum ? json::Json(*option.maximum) : json::Json(nullptr);
    out["help"] = option.help;
    out["default"] = option.default_value;
    out["help_shows_default"] = option.help_shows_default;
    out["global"] = option.global;
    out["commands"] = option.commands;
    out["positional"] = option.positional;
    out["required"] = option.required;
    out["required_unless"] = option.required_unless;
    out["repeatable"] = option.repeatable;
    out["value_optional"] = option.value_optional;
    out["excludes"] = option.excludes;
    out["exposure"] = exposure_name(option.exposure);
    out["policy_key"] = option.policy_key;
    out["no_policy_key"] = option.no_policy_key;
    out["head"] = option_head(option);
    out["text"] = option_text(option);
    return out;
}

json::Json exits_json(std::string_view command) {
    json::Json out = json::Json::array();
    for (const auto& exit : exit_meanings(command))
        out.push_back({{"codes", exit.codes}, {"meaning", exit.meaning}});
    return out;
}

}  // namespace

std::string_view kind_name(ValueKind kind) {
    switch (kind) {
        case ValueKind::flag:
            return "flag";
        case ValueKind::text:
            return "text";
        case ValueKind::file:
            return "file";
        case ValueKind::directory:
            return "directory";
        case ValueKind::root:
            return "root";
        case ValueKind::document:
            return "document";
        case ValueKind::device:
            return "device";
        case ValueKind::schema_name:
            return "schema_name";
        case ValueKind::doca_error:
            return "doca_error";
        case ValueKind::function_name:
            return "function_name";
        case ValueKind::check_id:
            return "check_id";
        case ValueKind::version:
            return "version";
        case ValueKind::module_requirement:
            return "module_requirement";
        case ValueKind::pkgconfig_module:
            return "pkgconfig_module";
        case ValueKind::symbol_name:
            return "symbol_name";
        case ValueKind::symbol_list:
            return "symbol_list";
        case ValueKind::source_name:
            return "source_name";
        case ValueKind::choice:
            return "choice";
        case ValueKind::integer:
            return "integer";
        case ValueKind::seconds:
            return "seconds";
        case ValueKind::duration:
            return "duration";
        case ValueKind::json_pointer:
            return "json_pointer";
    }
    return "text";
}

json::Json option_model_json(std::span<const CommandSummary> commands) {
    json::Json out = json::Json::object();
    out["tool"] = {{"name", build_info::kToolName}, {"version", build_info::kVersion}};
    out["default_command"] = command_names().front();
    json::Json global = json::Json::array();
    for (const auto* option : global_options()) global.push_back(option_json(*option));
    out["global"] = std::move(global);
    json::Json listed = json::Json::array();
    for (const auto& command : commands) {
        json::Json entry = json::Json::object();
        entry["name"] = command.name;
        entry["summary"] = command.summary;
        json::Json own = json::Json::array();
        for (const auto* option : own_options(command.name)) own.push_back(option_json(*option));
        entry["options"] = std::move(own);
        entry["exits"] = exits_json(command.name);
        listed.push_back(std::move(entry));
    }
    out["commands"] = std::move(listed);
    json::Json helpers = json::Json::array();
    for (const auto& helper : helper_names()) {
        helpers.push_back(
            {{"name", helper.name}, {"command", helper.command}, {"forced", helper.forced}});
    }
    out["helpers"] = std::move(helpers);
    out["exits"] = exits_json("");
    out["exit_note"] = kWarningExitNote;
    return out;
}

}  // namespace rdmi::cli
