// Durations: the number by from_chars (no locale, no "0x", no "inf"), then the unit.
#include "cli/duration.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <system_error>
#include <utility>

namespace rdmi::cli {

std::optional<double> parse_duration(std::string_view text) {
    // strtod would take "+5", " 5", "0x10" and "infinity": none of them is a duration anyone
    // means, so only plain decimal digits (and one point) are numbers here.
    std::size_t digits = 0;
    while (digits < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[digits])) != 0 || text[digits] == '.'))
        ++digits;
    if (digits == 0) return std::nullopt;
    double value = 0;
    const char* begin = text.data();
    auto [end, error] = std::from_chars(begin, begin + digits, value, std::chars_format::fixed);
    if (error != std::errc() || end != begin + digits || !std::isfinite(value)) return std::nullopt;
    static constexpr std::array<std::pair<std::string_view, double>, 5> kUnits{
        {{"", 1.0}, {"ms", 0.001}, {"s", 1.0}, {"m", 60.0}, {"h", 3600.0}}};
    const std::string_view unit = text.substr(digits);
    for (const auto& [name, scale] : kUnits) {
        if (unit != name) continue;
        const double seconds = value * scale;
        if (!std::isfinite(seconds)) return std::nullopt;
        return seconds;
    }
    return std::nullopt;
}

}  // namespace rdmi::cli
