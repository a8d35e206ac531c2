// The parent's side of the JSON wire between a forked child (verbs, DOCA, loopback) and the
// probe: bounded parsing, and numbers the decoders can convert without undefined behaviour.
#pragma once

#include <exception>
#include <optional>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/gap.hpp"
#include "core/result.hpp"

namespace rdmi {

/// Parses a child's answer with parse_json_input (size and depth capped, never throws on bad
/// bytes), then refuses floating-point numbers that the decoders' integer fields could not
/// hold (negative, not finite, 2^31 or more): converting those is undefined behaviour, not an
/// exception. `name` names the answer in messages ("verbs child's answer").
Result<nlohmann::json> parse_wire_json(std::string_view text, std::string_view name);

/// A malformed-answer Gap "<what>: <detail>" on one line, whatever the detail holds.
Gap wire_gap(std::string_view what, std::string_view detail);

/// A child's answer decoded: parse_wire_json(text, name), then `read(const nlohmann::json&)`,
/// which returns the T and throws (nlohmann's exceptions, std::runtime_error) on a missing
/// field or a wrong type. Either failure is one wire_gap(what, ...): never an exception.
template <class T, class Read>
Result<T> decode_wire_json(std::string_view text, std::string_view name, std::string_view what,
                           Read&& read) {
    auto parsed = parse_wire_json(text, name);
    if (!parsed) return wire_gap(what, parsed.gap().message);
    try {
        return std::forward<Read>(read)(std::as_const(*parsed));
    } catch (const std::exception& e) {
        return wire_gap(what, e.what());
    }
}

/// The one wire form of a Gap in a child's answer: null for none, else
/// {"reason": <GapReason as a number>, "message": "..."}.
nlohmann::json gap_to_wire(const std::optional<Gap>& gap);

/// Reads gap_to_wire()'s form back. Throws (nlohmann's exceptions, or std::runtime_error for a
/// reason out of range) on anything else; the decoders turn that into a wire_gap().
std::optional<Gap> gap_from_wire(const nlohmann::json& j);

}  // namespace rdmi
