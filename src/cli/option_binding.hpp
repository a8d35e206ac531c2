// The CLI11 definition of an option, built from its entry in the option model: a command only
// says which of its variables receives the value.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cli/cli11.hpp"
#include "cli/option_model.hpp"

namespace rdmi::cli {

/// The model's entry for `name` as `command` takes it ("" for the top-level parser). Throws
/// std::logic_error when the model has none: an option the model does not declare is a
/// programming error, caught by every test that builds the parser.
const OptionSpec& modelled_option(std::string_view command, std::string_view name);

/// The model's checks, placeholder, default text and exclusions on a CLI11 option already made
/// with the spec's names and help.
void apply_model(CLI::App& app, CLI::Option& option, const OptionSpec& spec);

/// The spec's names as CLI11 takes them: "-v,--verbose", "--root", "ERROR".
std::string cli11_names(const OptionSpec& spec);

/// Declares `name` (as the model states it for `command`) on `app`, storing into `target`.
template <class T>
CLI::Option* add_modelled(CLI::App& app, std::string_view command, std::string_view name,
                          T& target) {
    const OptionSpec& spec = modelled_option(command, name);
    CLI::Option* option = nullptr;
    if (spec.kind == ValueKind::flag) {
        option = app.add_flag(cli11_names(spec), target, spec.help);
    } else {
        option = app.add_option(cli11_names(spec), target, spec.help);
    }
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        // The range is checked in the target's own type, so --help reads "INT in [0 - 3]".
        if (spec.kind == ValueKind::integer && spec.minimum && spec.maximum) {
            option->check(CLI::Range(static_cast<T>(*spec.minimum), static_cast<T>(*spec.maximum)));
        }
    }
    apply_model(app, *option, spec);
    return option;
}

}  // namespace rdmi::cli
