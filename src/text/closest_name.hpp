// "Did you mean ...?": the known name a mistyped one most likely meant.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace rdmi::text {

/// Edits (insert, delete, replace one character, or swap two neighbours) from `a` to `b`.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// The name in `names` nearest to `typed`, when it is near enough to be a typo: at most one
/// edit for a word of up to four characters, two for a longer one ("repot" -> "report",
/// "chek" -> "check"); none for an exact match or when two names are equally near (a guess
/// between two would mislead).
[[nodiscard]] std::optional<std::string_view> closest_name(std::string_view typed,
                                                           std::span<const std::string_view> names);

}  // namespace rdmi::text
