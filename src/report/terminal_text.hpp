// Text from probed files, devices and documents made safe to print on a terminal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rdmi::text {

/// What terminal_safe() leaves alone.
enum class Keep {
    nothing,  ///< a value inside a line: every control is escaped, line feeds and tabs too
    layout,   ///< a whole human document: its line feeds, tabs and SGR colour sequences stay
};

/// The length (2..4) of the valid multi-byte UTF-8 sequence at `text[at]`, its code point in `cp`;
/// 0 when the bytes there are not one (ASCII included: callers take bytes < 0x80 first).
std::size_t utf8_sequence(std::string_view text, std::size_t at, std::uint32_t& cp);

/// The one escaping function of the human output. C0 controls (ESC as "\x1b", line feed as
/// "\n"), DEL, C1 controls (U+0080..U+009F as "\u0085"), the bidirectional overrides and
/// isolates (U+202A..U+202E, U+2066..U+2069) and every byte that is not part of valid UTF-8
/// ("\xff") become visible escapes; everything else, non-ASCII text included, is unchanged.
/// Backslashes are not doubled: the output is for reading, JSON carries the exact bytes.
std::string terminal_safe(std::string_view text, Keep keep = Keep::nothing);

}  // namespace rdmi::text
