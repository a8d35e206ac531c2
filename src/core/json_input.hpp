// Bounded parsing of JSON that comes from outside the program (files, tool output, child pipes).
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace rdmi {

/// Largest JSON input accepted (bigger inputs are refused before parsing).
inline constexpr std::size_t kMaxJsonInputBytes = std::size_t{16} << 20U;
/// Deepest nesting of arrays and objects accepted (keeps recursion in the JSON library bounded).
inline constexpr std::size_t kMaxJsonInputDepth = 256;

/// The offset of the first '[' or '{' (outside strings) nested deeper than `limit`, or npos.
std::size_t json_too_deep_at(std::string_view bytes, std::size_t limit);

/// Parses `bytes` as one JSON document. Never throws on bad input: an empty, oversized,
/// too deeply nested, truncated, non-UTF-8 or otherwise invalid document is a Gap (malformed)
/// with a one-line message "<name>: <problem> at line L, column C". `name` is how the input is
/// shown (a path, or e.g. "doca_caps output").
Result<nlohmann::json> parse_json_input(std::string_view bytes, std::string_view name);

}  // namespace rdmi
