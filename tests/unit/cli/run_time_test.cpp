// Tests for the run's time stamp: the calendar arithmetic against known dates, and which
// SOURCE_DATE_EPOCH values pin it.
#include <doctest/doctest.h>
#include <time.h>

#include "cli/run_time.hpp"
#include "os/env.hpp"

namespace rdmi::cli {
namespace {

std::string by_gmtime(long long seconds) {
    const auto at = static_cast<std::time_t>(seconds);
    std::tm utc{};
    REQUIRE(::gmtime_r(&at, &utc) != nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buf;
}

MapEnv with_epoch(const char* value) {
    MapEnv env;
    env.set("SOURCE_DATE_EPOCH", value);
    return env;
}

std::optional<long long> pinned(const char* value) {
    return source_date_epoch(with_epoch(value));
}

}  // namespace

TEST_CASE("iso8601_utc spells known instants") {
    CHECK(iso8601_utc(0) == "1970-01-01T00:00:00Z");
    CHECK(iso8601_utc(951782400) == "2000-02-29T00:00:00Z");  // a leap day of a 400-year
    CHECK(iso8601_utc(1796083199) == "2026-11-30T23:59:59Z");
    CHECK(iso8601_utc(253402300799) == "9999-12-31T23:59:59Z");
}

TEST_CASE("iso8601_utc agrees with gmtime across leap years, month ends and the day's seconds") {
    // Every 1,000,003 seconds (about 11.6 days, so each month end, leap day and second of the
    // day is passed at a different offset) from 1970 to past 2100, which is no leap year.
    for (long long t = 0; t < 4200000000LL; t += 1000003) {
        CAPTURE(t);
        REQUIRE(iso8601_utc(t) == by_gmtime(t));
    }
    for (long long t : {4107542399LL, 4107542400LL, 4107628800LL, 4102444799LL}) {
        CAPTURE(t);
        CHECK(iso8601_utc(t) == by_gmtime(t));
    }
}

TEST_CASE("parse_iso8601_utc reads back what iso8601_utc writes, and nothing else") {
    for (long long t = 0; t < 4200000000LL; t += 1000003) {
        CAPTURE(t);
        REQUIRE(parse_iso8601_utc(iso8601_utc(t)) == t);
    }
    CHECK(parse_iso8601_utc("9999-12-31T23:59:59Z") == kLatestIso8601Seconds);
    for (const char* bad :
         {"", "2026-12-01T10:00:00", "2026-12-01 10:00:00Z", "2026-02-30T10:00:00Z",
          "2026-13-01T10:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T10:60:00Z",
          "2026-12-01T10:00:60Z", "2026-12-01T10:00:00+00:00", "+026-12-01T10:00:00Z",
          "2026-1a-01T10:00:00Z", "2026-12-01T10:00:00Zx"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_iso8601_utc(bad));
    }
}

TEST_CASE("SOURCE_DATE_EPOCH pins the time only when it is a whole number of seconds in range") {
    CHECK(pinned("0") == 0);
    CHECK(pinned("1796083199") == 1796083199);
    CHECK(pinned("253402300799") == 253402300799);
    CHECK_FALSE(pinned("253402300800"));  // year 10000: not four digits
    CHECK_FALSE(pinned("-1"));
    CHECK_FALSE(pinned(""));
    CHECK_FALSE(pinned("12abc"));
    CHECK_FALSE(pinned(" 12"));
    CHECK_FALSE(pinned("1.5"));
    CHECK_FALSE(pinned("99999999999999999999999"));
    CHECK_FALSE(source_date_epoch(MapEnv()));
}

TEST_CASE("generation_time follows a pinned SOURCE_DATE_EPOCH and ignores a bad one") {
    CHECK(generation_time(with_epoch("951782400")) == "2000-02-29T00:00:00Z");
    const std::string now = generation_time(with_epoch("-5"));
    CHECK(now.size() == 20);
    CHECK(now.compare(0, 2, "20") == 0);  // this century's now, not 1969
}

}  // namespace rdmi::cli
