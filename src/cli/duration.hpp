// A span of time as a user writes it on the command line: "90", "1.5", "500ms", "5s", "2m", "1h".
#pragma once

#include <optional>
#include <string_view>

namespace rdmi::cli {

/// The seconds `text` spells: a non-negative decimal number, bare (seconds) or followed at once
/// by one unit, `ms`, `s`, `m` or `h` (as systemd and `timeout(1)` spell them). Nullopt for
/// anything else: an empty text, a sign, spaces, an unknown unit, "nan", "inf", an overflow.
[[nodiscard]] std::optional<double> parse_duration(std::string_view text);

}  // namespace rdmi::cli
