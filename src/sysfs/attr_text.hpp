// Byte-level helpers shared by the sysfs/procfs attribute parsers (no I/O).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi::sysfs {

/// The text of a one-line attribute with surrounding whitespace removed. A malformed Gap
/// (message without a path) when it is empty, spans several lines, or holds bytes that are not
/// printable ASCII.
Result<std::string_view> attr_line(std::string_view bytes);

/// attr_line() as an owned string: for free-text attributes (board_id, hca_type, operstate).
Result<std::string> parse_line(std::string_view bytes);

/// A one-line attribute holding an unsigned 64-bit decimal number (nr_hugepages, ...).
Result<std::uint64_t> parse_unsigned(std::string_view bytes);

/// The first line of a text file (e.g. /etc/mlnx-release), checked like attr_line().
Result<std::string> parse_first_line(std::string_view bytes);

/// A decimal number no larger than `max`; the whole text must be digits.
Result<std::uint64_t> parse_decimal(std::string_view text, std::uint64_t max);

/// A signed decimal number within [min, max] (e.g. numa_node, which may be -1).
Result<std::int64_t> parse_signed(std::string_view text, std::int64_t min, std::int64_t max);

/// A non-negative decimal written with digits and at most one point ("2.5", "100", "53.125"), as
/// the kernel prints fractional attributes: no sign, exponent, "inf" or "nan", at most 15 digits
/// in all, leading zeros included
/// (so the value is the correctly rounded double of the text).
Result<double> parse_fixed_point(std::string_view text);

/// A hexadecimal number no larger than `max`, with or without a "0x" prefix.
Result<std::uint64_t> parse_hex(std::string_view text, std::uint64_t max);

/// `text` quoted for a message, shortened to a few dozen characters and with non-printable
/// bytes shown as \xNN.
std::string quote_for_message(std::string_view text);

/// A malformed Gap whose message is `problem` (the caller prefixes the path).
Gap malformed(std::string problem);

}  // namespace rdmi::sysfs
