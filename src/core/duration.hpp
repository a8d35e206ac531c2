// Durations as a user writes them on a command line ("90", "1.5", "500ms", "5s", "15m",
// "1h30m", "2d"), the way systemd's time spans and Go's durations read.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rdmi {

/// The seconds `text` spells: one or more `<number><unit>` parts, unit `d`, `h`, `m`, `s` or
/// `ms`, each unit at most once and largest first (`1h30m`, not `30m1h`), or one bare number
/// meaning seconds. A number is plain decimal digits with at most one point (`1.5`, `.5`).
/// Nullopt for anything else: an empty text, a sign, a space, an exponent, "0x", "nan", "inf",
/// an unknown unit, a total too large for a double.
[[nodiscard]] std::optional<double> parse_duration(std::string_view text);

/// `seconds` as parse_duration reads it back, in whole units largest first, to the millisecond:
/// 5400 is "1h30m", 0.25 is "250ms", 31536000 is "365d", 0 is "0s".
[[nodiscard]] std::string duration_text(double seconds);

}  // namespace rdmi
