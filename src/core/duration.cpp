// Duration text to seconds: the number by from_chars (no locale, no sign, no "inf"), then its
// unit.
#include "core/duration.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>
#include <utility>

namespace rdmi {

namespace {

// Longest spelling first where one is a prefix of another ("ms" before "m"); the rank keeps
// the order largest first.
struct Unit {
    std::string_view name;
    double seconds;
    int rank;
};
constexpr std::array<Unit, 5> kUnits{
    {{"d", 86400.0, 0}, {"h", 3600.0, 1}, {"ms", 0.001, 4}, {"m", 60.0, 2}, {"s", 1.0, 3}}};

// The length of the decimal number at the start of `text`: digits and at most one point, with
// at least one digit; 0 when there is none. strtod would also take "+5", " 5", "0x10", "1e3"
// and "infinity", none of which is a duration anyone means.
std::size_t number_length(std::string_view text) {
    std::size_t length = 0;
    bool point = false;
    bool digit = false;
    for (; length < text.size(); ++length) {
        const char c = text[length];
        if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
            digit = true;
        } else if (c == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    return digit ? length : 0;
}

}  // namespace

std::optional<double> parse_duration(std::string_view text) {
    double total = 0;
    int next_rank = 0;
    bool first = true;
    while (!text.empty()) {
        const std::size_t length = number_length(text);
        if (length == 0) return std::nullopt;
        double value = 0;
        const char* begin = text.data();
        auto [end, error] = std::from_chars(begin, begin + length, value, std::chars_format::fixed);
        if (error != std::errc() || end != begin + length || !std::isfinite(value))
            return std::nullopt;
        text.remove_prefix(length);
        double scale = 1.0;
        if (text.empty()) {
            // Bare digits are seconds, and only as the whole text ("90", not "1m30").
            if (!first) return std::nullopt;
        } else {
            const Unit* unit = nullptr;
            for (const Unit& candidate : kUnits) {
                if (text.starts_with(candidate.name)) {
                    unit = &candidate;
                    break;
                }
            }
            if (unit == nullptr || unit->rank < next_rank) return std::nullopt;
            scale = unit->seconds;
            next_rank = unit->rank + 1;
            text.remove_prefix(unit->name.size());
        }
        total += value * scale;
        if (!std::isfinite(total)) return std::nullopt;
        first = false;
    }
    if (first) return std::nullopt;
    return total;
}

std::string duration_text(double seconds) {
    constexpr std::array<std::pair<std::string_view, long long>, 5> kParts{
        {{"d", 86'400'000}, {"h", 3'600'000}, {"m", 60'000}, {"s", 1'000}, {"ms", 1}}};
    long long left = std::llround(std::max(seconds, 0.0) * 1000.0);
    std::string text;
    for (const auto& [name, ms] : kParts) {
        if (left < ms) continue;
        text += std::to_string(left / ms);
        text += name;
        left %= ms;
    }
    return text.empty() ? "0s" : text;
}

}  // namespace rdmi
