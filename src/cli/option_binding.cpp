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

// CLI::Range compares with < and >, which every NaN passes: the range is checked on a finite
// value, so "nan", "inf" and negatives are usage errors like any other out-of-range value.
CLI::Validator seconds_range(double minimum, double maximum) {
    auto shown = [](double value) {
        std::string text = std::to_string(value);
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') text.pop_back();
        return text;
    };
    const std::string range = "[" + shown(minimum) + " - " + shown(maximum) + "]";
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

// "1d2h", for the help's range: the units a duration is written in.
std::string duration_text(long long seconds) {
    std::string text;
    for (const auto& [unit, size] : {std::pair{'d', 86400LL}, {'h', 3600LL}, {'m', 60LL}}) {
        if (seconds >= size) {
            text += std::to_string(seconds / size) + unit;
            seconds %= size;
        }
    }
    if (seconds > 0 || text.empty()) text += std::to_string(seconds) + 's';
    return text;
}

// A duration in [minimum, maximum] seconds; the value stays the text the user gave, which the
// command parses again with the same function.
CLI::Validator duration_range(double minimum, double maximum) {
    const auto low = static_cast<long long>(minimum);
    const auto high = static_cast<long long>(maximum);
    const std::string range = "[" + duration_text(low) + " - " + duration_text(high) + "]";
    return CLI::Validator(
        [low, high, range](std::string& text) -> std::string {
            const auto seconds = parse_duration_seconds(text, high);
            if (!seconds || *seconds < low)
                return "Value " + text + " is not a duration in " + range +
                       " (whole numbers with units, largest first: 90s, 15m, 1h30m, 2d)";
            return {};
        },
        "in " + range);
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
        option.check(duration_range(*spec.minimum, *spec.maximum));
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
