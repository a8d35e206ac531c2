// Byte-level helpers shared by the attribute parsers.
#include "sysfs/attr_text.hpp"

#include <array>
#include <charconv>
#include <limits>

namespace rdmi::sysfs {
namespace {

constexpr std::size_t kQuoteLimit = 40;

bool is_space(char c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

bool is_printable(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f;
}

}  // namespace

Gap malformed(std::string problem) {
    return Gap{GapReason::malformed, std::move(problem)};
}

std::string quote_for_message(std::string_view text) {
    static constexpr std::array<char, 16> kHex = {'0', '1', '2', '3', '4', '5', '6', '7',
                                                  '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size() && i < kQuoteLimit; ++i) {
        const char c = text[i];
        if (is_printable(c) && c != '"' && c != '\\') {
            out += c;
        } else {
            const auto u = static_cast<unsigned char>(c);
            out += "\\x";
            out += kHex[u >> 4U];
            out += kHex[u & 0xfU];
        }
    }
    if (text.size() > kQuoteLimit) out += "...";
    out += '"';
    return out;
}

Result<std::string_view> attr_line(std::string_view bytes) {
    while (!bytes.empty() && is_space(bytes.front())) bytes.remove_prefix(1);
    while (!bytes.empty() && is_space(bytes.back())) bytes.remove_suffix(1);
    if (bytes.empty()) return malformed("empty");
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (bytes[i] == '\n') return malformed("more than one line: " + quote_for_message(bytes));
        if (!is_printable(bytes[i]) && bytes[i] != '\t')
            return malformed("binary data, not text: " + quote_for_message(bytes));
    }
    return bytes;
}

Result<std::string> parse_line(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    return std::string(*line);
}

Result<std::uint64_t> parse_unsigned(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    return parse_decimal(*line, std::numeric_limits<std::uint64_t>::max());
}

Result<std::string> parse_first_line(std::string_view bytes) {
    while (!bytes.empty() && is_space(bytes.front())) bytes.remove_prefix(1);
    return parse_line(bytes.substr(0, bytes.find('\n')));
}

Result<std::uint64_t> parse_decimal(std::string_view text, std::uint64_t max) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != end)
        return malformed("not a decimal number: " + quote_for_message(text));
    if (ec == std::errc::result_out_of_range || value > max) {
        return malformed("out of range (max " + std::to_string(max) +
                         "): " + quote_for_message(text));
    }
    return value;
}

Result<double> parse_fixed_point(std::string_view text) {
    // Exact: a mantissa below 2^53 and a power of ten up to 10^15 are both doubles, so their
    // quotient is rounded once, as strtod or from_chars would round it. Written out because the
    // library's floating-point from_chars is what made the program load libm.
    constexpr int kMaxDigits = 15;
    constexpr std::array<double, kMaxDigits + 1> kPowers{
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    std::uint64_t mantissa = 0;
    int digits = 0;
    int decimals = 0;
    bool point = false;
    for (const char c : text) {
        if (c == '.' && !point) {
            point = true;
        } else if (c >= '0' && c <= '9') {
            if (++digits > kMaxDigits)
                return malformed("too many digits: " + quote_for_message(text));
            mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
            if (point) ++decimals;
        } else {
            return malformed("not a decimal number: " + quote_for_message(text));
        }
    }
    if (digits == 0) return malformed("not a decimal number: " + quote_for_message(text));
    return static_cast<double>(mantissa) / kPowers[static_cast<std::size_t>(decimals)];
}

Result<std::int64_t> parse_signed(std::string_view text, std::int64_t min, std::int64_t max) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
    if (text.empty() || ec == std::errc::invalid_argument || ptr != end)
        return malformed("not a decimal number: " + quote_for_message(text));
    if (ec == std::errc::result_out_of_range || value < min || value > max)
        return malformed("out of range: " + quote_for_message(text));
    return value;
}

Result<std::uint64_t> parse_hex(std::string_view text, std::uint64_t max) {
    std::string_view digits = text;
    if (digits.size() >= 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        digits.remove_prefix(2);
    std::uint64_t value = 0;
    const char* end = digits.data() + digits.size();
    auto [ptr, ec] = std::from_chars(digits.data(), end, value, 16);
    if (digits.empty() || ec == std::errc::invalid_argument || ptr != end)
        return malformed("not a hexadecimal number: " + quote_for_message(text));
    if (ec == std::errc::result_out_of_range || value > max)
        return malformed("out of range: " + quote_for_message(text));
    return value;
}

}  // namespace rdmi::sysfs
