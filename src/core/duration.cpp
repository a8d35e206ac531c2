// Duration text to seconds.
#include "core/duration.hpp"

#include <array>
#include <charconv>
#include <system_error>
#include <utility>

namespace rdmi {

std::optional<long long> parse_duration_seconds(std::string_view text, long long max_seconds) {
    // Largest first: a unit may follow only a larger one, so "1h1h" and "5m1h" are refused.
    constexpr std::array<std::pair<char, long long>, 4> kUnits{
        {{'d', 86400}, {'h', 3600}, {'m', 60}, {'s', 1}}};
    if (text.empty()) return std::nullopt;
    long long total = 0;
    std::size_t next_unit = 0;
    const char* at = text.data();
    const char* const end = text.data() + text.size();
    while (at != end) {
        long long count = 0;
        auto [after, ec] = std::from_chars(at, end, count);
        // from_chars takes a leading '-': a negative part is no duration.
        if (ec != std::errc() || count < 0 || *at == '-') return std::nullopt;
        at = after;
        long long unit = 1;
        if (at == end) {
            // Bare digits are seconds, and only as the whole text ("90", not "1m30").
            if (next_unit != 0) return std::nullopt;
        } else {
            std::size_t i = next_unit;
            while (i < kUnits.size() && kUnits[i].first != *at) ++i;
            if (i == kUnits.size()) return std::nullopt;
            unit = kUnits[i].second;
            next_unit = i + 1;
            ++at;
        }
        if (count > (max_seconds - total) / unit) return std::nullopt;
        total += count * unit;
    }
    return total;
}

}  // namespace rdmi
