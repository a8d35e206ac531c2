// Tests for the duration text of --nfd-expiry.
#include "core/duration.hpp"

#include <doctest/doctest.h>

namespace rdmi {

namespace {
constexpr long long kYear = 365LL * 86400;
}

TEST_CASE("a duration is whole parts with units, largest first, or bare seconds") {
    CHECK(parse_duration_seconds("90", kYear) == 90);
    CHECK(parse_duration_seconds("90s", kYear) == 90);
    CHECK(parse_duration_seconds("15m", kYear) == 900);
    CHECK(parse_duration_seconds("2h", kYear) == 7200);
    CHECK(parse_duration_seconds("1d", kYear) == 86400);
    CHECK(parse_duration_seconds("1h30m", kYear) == 5400);
    CHECK(parse_duration_seconds("1d2h3m4s", kYear) == 93784);
    CHECK(parse_duration_seconds("0s", kYear) == 0);
}

TEST_CASE("anything else is refused, never read as a smaller duration") {
    for (const char* bad : {"", "s", "m5", "1.5h", "-5m", "+5m", "5 m", " 5m", "5m ", "5M", "5w",
                            "5ms", "1m1h", "1h1h", "1m30", "5mm", "0x10s", "1h-5m"}) {
        INFO(bad);
        CHECK_FALSE(parse_duration_seconds(bad, kYear));
    }
}

TEST_CASE("a total above the bound is refused, also where the arithmetic would overflow") {
    CHECK(parse_duration_seconds("365d", kYear) == kYear);
    CHECK_FALSE(parse_duration_seconds("365d1s", kYear));
    CHECK_FALSE(parse_duration_seconds("9223372036854775807d", kYear));
    CHECK_FALSE(parse_duration_seconds("99999999999999999999999s", kYear));
    // 106751991167301 days is just past the largest long long number of seconds.
    CHECK(parse_duration_seconds("106751991167300d", 9223372036854775807LL) ==
          106751991167300LL * 86400);
    CHECK_FALSE(parse_duration_seconds("106751991167301d", 9223372036854775807LL));
}

}  // namespace rdmi
