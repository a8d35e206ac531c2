// Canonical spellings of JSON numbers, so that numbers compare by value without a double's
// rounding.
#include "json/exact_number.hpp"

#include <array>
#include <charconv>
#include <cstdint>

namespace rdmi {
namespace {

bool digit(char c) {
    return c >= '0' && c <= '9';
}

// Reads a run of digits starting at `at`; returns where it ends.
std::size_t digits_end(std::string_view text, std::size_t at) {
    while (at < text.size() && digit(text[at])) ++at;
    return at;
}

}  // namespace

std::optional<std::string> canonical_number(std::string_view text) {
    // JSON's grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    std::size_t at = 0;
    const bool negative = at < text.size() && text[at] == '-';
    if (negative) ++at;
    const std::size_t int_begin = at;
    at = digits_end(text, at);
    const std::size_t int_end = at;
    if (int_end == int_begin || (text[int_begin] == '0' && int_end - int_begin > 1))
        return std::nullopt;
    std::size_t frac_begin = at;
    std::size_t frac_end = at;
    if (at < text.size() && text[at] == '.') {
        frac_begin = ++at;
        at = digits_end(text, at);
        frac_end = at;
        if (frac_end == frac_begin) return std::nullopt;
    }
    std::int64_t exponent = 0;
    if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
        ++at;
        bool exponent_negative = false;
        if (at < text.size() && (text[at] == '+' || text[at] == '-'))
            exponent_negative = text[at++] == '-';
        const std::size_t exp_begin = at;
        at = digits_end(text, at);
        if (at == exp_begin) return std::nullopt;
        std::size_t first = exp_begin;
        while (first + 1 < at && text[first] == '0') ++first;
        // 18 digits stay far from int64's limits after the adjustments below.
        if (at - first > 18) return std::nullopt;
        for (std::size_t i = first; i < at; ++i) exponent = exponent * 10 + (text[i] - '0');
        if (exponent_negative) exponent = -exponent;
    }
    if (at != text.size()) return std::nullopt;
    // All digits in one run: the number is that integer times 10^(exponent - fraction digits).
    std::string digits(text.substr(int_begin, int_end - int_begin));
    digits.append(text.substr(frac_begin, frac_end - frac_begin));
    exponent -= static_cast<std::int64_t>(frac_end - frac_begin);
    const std::size_t lead = digits.find_first_not_of('0');
    if (lead == std::string::npos) return std::string("0");
    digits.erase(0, lead);
    const std::size_t last = digits.find_last_not_of('0');
    exponent += static_cast<std::int64_t>(digits.size() - 1 - last);
    digits.resize(last + 1);
    return (negative ? "-" : "") + digits + "e" + std::to_string(exponent);
}

std::string shortest_decimal(double value) {
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return {buffer.data(), result.ptr};
}

bool double_holds(std::string_view text, double value) {
    const auto said = canonical_number(text);
    return said && said == canonical_number(shortest_decimal(value));
}

}  // namespace rdmi
