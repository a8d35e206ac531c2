// Small text helpers every layer uses: join, trim, split into lines or items.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rdmi {

/// The characters std::isspace() accepts in the C locale.
inline constexpr std::string_view kWhitespace = " \t\n\v\f\r";

/// Each byte of `bytes` as two lowercase hex digits ("\x01\xab" -> "01ab"): how digests print.
std::string lower_hex(std::string_view bytes);

/// `items` with `separator` between each two ("a, b, c"); "" for none.
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

/// `text` without the leading and trailing characters found in `chars`.
std::string_view trim(std::string_view text, std::string_view chars = kWhitespace);

/// The lines of `text`, split at '\n' (not kept). A final '\n' ends the last line and starts
/// no empty one; "" has no lines; empty lines inside are kept, so index + 1 is the line number.
/// The views point into `text`.
std::vector<std::string_view> split_lines(std::string_view text);

/// The non-empty pieces of `text` between any of the `separators`, trimmed of `blanks` first
/// ("a, ,b" split at "," with blanks " " -> "a", "b"). The views point into `text`.
std::vector<std::string_view> split_items(std::string_view text, std::string_view separators,
                                          std::string_view blanks = "");

}  // namespace rdmi
