// The questions a check answers. A reader asks one of two things: can an installed RDMI
// application run on this host, or can one (and its DPA kernels) be built here. A check answers
// one or both, and a verdict "for run" is computed over the run checks alone, so that a host
// without a compiler is not called unready for the workloads it can run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmi {

/// A set of purposes, as bits. An entry of the catalog declares a non-empty one.
enum class Purposes : std::uint8_t {
    none = 0,
    run = 1,    ///< an installed RDMI application can run here
    build = 2,  ///< an RDMI application and its DPA kernels can be built here
    both = 3,   ///< also what `--for all` selects
};

/// Whether `set` answers any of the questions in `wanted`.
constexpr bool answers(Purposes set, Purposes wanted) {
    return (static_cast<unsigned>(set) & static_cast<unsigned>(wanted)) != 0;
}

/// The union of two sets.
constexpr Purposes operator|(Purposes a, Purposes b) {
    return static_cast<Purposes>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

/// The names of the set's purposes, run before build ("run", "build"): the JSON arrays.
std::vector<std::string> purpose_names(Purposes set);

/// The set as text shows it: "run", "build" or "run, build"; "none" for the empty set.
std::string purposes_text(Purposes set);

/// The value of a `--for` option: "run", "build" or "all" (both); nullopt for anything else.
std::optional<Purposes> parse_for(std::string_view text);

/// The `--for` value that selects `set`: "run", "build" or "all".
std::string_view for_name(Purposes set);

}  // namespace rdmi
