// parse_duration: the forms users write, and everything else refused rather than misread.
#include "core/duration.hpp"

#include <doctest/doctest.h>

#include <string>

namespace rdmi {

TEST_CASE("a duration is bare seconds or numbers with units, largest first") {
    CHECK(parse_duration("90") == 90.0);
    CHECK(parse_duration("1.5") == 1.5);
    CHECK(parse_duration("0") == 0.0);
    CHECK(parse_duration(".5s") == 0.5);
    CHECK(parse_duration("250ms") == doctest::Approx(0.25));
    CHECK(parse_duration("5s") == 5.0);
    CHECK(parse_duration("2m") == 120.0);
    CHECK(parse_duration("15m") == 900.0);
    CHECK(parse_duration("1h") == 3600.0);
    CHECK(parse_duration("1.5h") == 5400.0);
    CHECK(parse_duration("1d") == 86400.0);
    CHECK(parse_duration("1h30m") == 5400.0);
    CHECK(parse_duration("1d2h3m4s") == 93784.0);
    CHECK(parse_duration("1m30s500ms") == doctest::Approx(90.5));
    CHECK(parse_duration("365d") == 365.0 * 86400);
}

TEST_CASE("anything else is no duration, never read as a smaller one") {
    for (const char* text :
         {"",     "s",    "m5",   "-5",  "+5",    " 5",    "5 s",     "5s ", "5S",   "5M",
          "5w",   "5sec", "5min", "nan", "inf",   "0x10",  "1e3",     "5s5", "1..2", ".",
          "1m1h", "1h1h", "1m30", "5mm", "5ms s", "1h-5m", "5s1ms1s", "ms",  "1.5.h"}) {
        CAPTURE(text);
        CHECK_FALSE(parse_duration(text).has_value());
    }
    // A number past double's range is refused, not read as infinity.
    CHECK_FALSE(parse_duration(std::string(400, '9') + "h").has_value());
    CHECK_FALSE(parse_duration(std::string(308, '9') + "d").has_value());
}

TEST_CASE("a duration is written back in whole units, largest first") {
    CHECK(duration_text(5400) == "1h30m");
    CHECK(duration_text(0.25) == "250ms");
    CHECK(duration_text(31536000) == "365d");
    CHECK(duration_text(0.001) == "1ms");
    CHECK(duration_text(93784.5) == "1d2h3m4s500ms");
    CHECK(duration_text(0) == "0s");
    CHECK(duration_text(-3) == "0s");
    for (const double seconds : {0.001, 1.0, 90.0, 5400.0, 86400.0, 93784.5})
        CHECK(parse_duration(duration_text(seconds)) == doctest::Approx(seconds));
}

}  // namespace rdmi
