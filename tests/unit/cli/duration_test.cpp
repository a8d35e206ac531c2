// Tests for the durations --wait takes: the units and what is refused.
#include <doctest/doctest.h>

#include <string>

#include "cli/duration.hpp"

namespace rdmi::cli {
namespace {

TEST_CASE("a duration is seconds, bare or with one unit") {
    CHECK(parse_duration("90") == 90.0);
    CHECK(parse_duration("1.5") == 1.5);
    CHECK(parse_duration("5s") == 5.0);
    CHECK(parse_duration("2m") == 120.0);
    CHECK(parse_duration("1h") == 3600.0);
    CHECK(parse_duration("250ms") == doctest::Approx(0.25));
    CHECK(parse_duration("0") == 0.0);
    CHECK(parse_duration(".5s") == 0.5);
}

TEST_CASE("anything else is no duration") {
    for (const char* text : {"", "s", "-5", "+5", " 5", "5 s", "5S", "5sec", "5min", "1d", "nan",
                             "inf", "0x10", "1e3", "5s5", "5ms s", "1..2", "."}) {
        CAPTURE(text);
        CHECK_FALSE(parse_duration(text).has_value());
    }
    // A number past double's range is refused, not read as infinity.
    CHECK_FALSE(parse_duration(std::string(400, '9') + "h").has_value());
}

}  // namespace
}  // namespace rdmi::cli
