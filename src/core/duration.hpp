// Durations as an operator writes them on a command line ("90s", "15m", "1h30m", "2d"), the
// way systemd's time spans and Go's durations read: whole numbers, each with its unit.
#pragma once

#include <optional>
#include <string_view>

namespace rdmi {

/// The number of seconds `text` spells: one or more `<digits><unit>` parts, unit `s`, `m`, `h`
/// or `d`, each unit at most once and in that order from the largest (`1d2h`, not `2h1d`), or
/// bare digits meaning seconds. Nullopt for anything else (an empty text, a sign, a fraction,
/// a space, an unknown unit) and for a total above `max_seconds`, so that an overflow never
/// wraps into a small lifetime.
[[nodiscard]] std::optional<long long> parse_duration_seconds(std::string_view text,
                                                              long long max_seconds);

}  // namespace rdmi
