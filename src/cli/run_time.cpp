// The run's time stamp, by the calendar.
#include "cli/run_time.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <system_error>

namespace rdmi::cli {

std::optional<long long> source_date_epoch(const Env& env) {
    constexpr long long kEndOf9999 = kLatestIso8601Seconds;
    auto pinned = env.get("SOURCE_DATE_EPOCH");
    if (!pinned || pinned->empty()) return std::nullopt;
    long long seconds = 0;
    const char* end = pinned->data() + pinned->size();
    auto [ptr, ec] = std::from_chars(pinned->data(), end, seconds);
    if (ec != std::errc() || ptr != end || seconds < 0 || seconds > kEndOf9999) return std::nullopt;
    return seconds;
}

std::string iso8601_utc(long long seconds) {
    // By the calendar rather than gmtime_r: glibc's gmtime reads /etc/localtime on first use,
    // four system calls and a file parse that a UTC time stamp has no use for.
    using namespace std::chrono;
    const sys_seconds at{std::chrono::seconds{seconds}};
    const auto day = floor<days>(at);
    const year_month_day date{day};
    const hh_mm_ss time{at - day};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                  static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                  static_cast<int>(time.seconds().count()));
    return buf;
}

std::optional<long long> parse_iso8601_utc(std::string_view text) {
    // Fixed widths, as iso8601_utc writes them: "YYYY-MM-DDTHH:MM:SSZ".
    if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
        text[13] != ':' || text[16] != ':' || text[19] != 'Z')
        return std::nullopt;
    auto field = [&](std::size_t at, std::size_t width) -> std::optional<int> {
        int value = 0;
        const char* first = text.data() + at;
        for (std::size_t i = 0; i < width; ++i) {
            if (first[i] < '0' || first[i] > '9') return std::nullopt;
        }
        auto [ptr, ec] = std::from_chars(first, first + width, value);
        if (ec != std::errc() || ptr != first + width) return std::nullopt;
        return value;
    };
    const auto year = field(0, 4);
    const auto month = field(5, 2);
    const auto day = field(8, 2);
    const auto hour = field(11, 2);
    const auto minute = field(14, 2);
    const auto second = field(17, 2);
    if (!year || !month || !day || !hour || !minute || !second || *hour > 23 || *minute > 59 ||
        *second > 59)
        return std::nullopt;
    using namespace std::chrono;
    const year_month_day date{std::chrono::year{*year},
                              std::chrono::month{static_cast<unsigned>(*month)},
                              std::chrono::day{static_cast<unsigned>(*day)}};
    if (!date.ok()) return std::nullopt;
    const sys_seconds at = sys_days{date} + hours{*hour} + minutes{*minute} + seconds{*second};
    return at.time_since_epoch().count();
}

std::string generation_time(const Env& env) {
    if (auto pinned = source_date_epoch(env)) return iso8601_utc(*pinned);
    using namespace std::chrono;
    return iso8601_utc(duration_cast<seconds>(system_clock::now().time_since_epoch()).count());
}

}  // namespace rdmi::cli
