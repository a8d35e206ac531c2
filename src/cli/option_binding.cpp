// The CLI11 side of the option model: names, checks, placeholders and defaults from the table.
#include "cli/option_binding.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/duration.hpp"
#include "json/json_pointer.hpp"

namespace rdmi::cli {
namespace {

// 0.001 as "0.001", 3600 as "3600".
std::string shown_seconds(double value) {
    std::string text = std::to_string(value);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
    return text;
}

// CLI::Range compares with < and >, which every NaN passes: the range is checked on a finite
// value, so "nan", "inf" and negatives are usage errors like any other out-of-range value.
CLI::Validator seconds_range(double minimum, double maximum) {
    const std::string range = "[" + shown_seconds(minimum) + " - " + shown_seconds(maximum) + "]";
    return CLI::Validator(
        [minimum, maximum, range](std::string& text) -> std::string {
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !std::isfinite(value) || value < minimum ||
                value > maximum)
                return "Value " + text + " not in range " + range + " (seconds)";
            return {};
        },
        "FLOAT in " + range);
}

// A duration's text becomes its number of seconds, which the option's double receives: "2m" is
// stored as 120, and a value out of range is a usage error naming the range in seconds.
CLI::Validator duration_range(double minimum, double maximum) {
    const std::string range = "[" + duration_text(minimum) + " - " + duration_text(maximum) + "]";
    return CLI::Validator(
        [minimum, maximum, range](std::string& text) -> std::string {
            const auto seconds = parse_duration(text);
            if (!seconds) {
                return "Value " + text +
                       " is not a duration (seconds, or numbers with units largest first: 90, 5s, "
                       "2m, "
                       "1h30m, 2d)";
            }
            if (*seconds < minimum || *seconds > maximum)
                return "Value " + text + " not in range " + range;
            text = std::to_string(*seconds);
            return {};
        },
        "DURATION in " + range);
}

// Refused when parsed, before anything runs: a pointer that is no pointer names no value.
CLI::Validator json_pointer_syntax() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            auto parsed = parse_json_pointer(text);
            if (!parsed) return text + ": " + parsed.gap().message + " (RFC 6901)";
            return {};
        },
        "");
}

}  // namespace

const OptionSpec& modelled_option(std::string_view command, std::string_view name) {
    for (const auto& option : option_model()) {
        const bool scope =
            command.empty() ? option.global : !option.global && applies_to(option, command);
        if (scope && option.name == name) return option;
    }
    throw std::logic_error("option " + std::string(name) + " of " +
                           (command.empty() ? std::string("the top level") : std::string(command)) +
                           " is not in the option model (src/cli/option_model.cpp)");
}

std::string cli11_names(const OptionSpec& spec) {
    if (spec.short_name.empty()) return spec.name;
    return spec.short_name + "," + spec.name;
}

void apply_model(CLI::App& app, CLI::Option& option, const OptionSpec& spec) {
    if (!spec.placeholder.empty()) option.type_name(spec.placeholder);
    if (spec.kind == ValueKind::choice) {
        option.check(CLI::IsMember(std::vector<std::string>(spec.choices)));
    }
    if (spec.kind == ValueKind::seconds && spec.minimum && spec.maximum)
        option.check(seconds_range(*spec.minimum, *spec.maximum));
    if (spec.kind == ValueKind::duration && spec.minimum && spec.maximum)
        option.transform(duration_range(*spec.minimum, *spec.maximum));  // check() would copy
    if (spec.kind == ValueKind::json_pointer) option.check(json_pointer_syntax());
    if (spec.help_shows_default) option.default_str(spec.default_value);
    if (spec.value_optional) option.expected(0, 1);
    if (spec.required) option.required();
    // An exclusion is declared by the later of the two options, once both exist.
    for (const auto& other : spec.excludes) {
        if (CLI::Option* excluded = app.get_option_no_throw(other)) option.excludes(excluded);
    }
}

}  // namespace rdmi::cli
