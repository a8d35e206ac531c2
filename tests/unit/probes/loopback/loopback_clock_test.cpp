// The write kernel's time bound: a rate that can only be too low, a budget inside half the DPA's
// kernel run-time limit, and ticks that never round up past the budget.
#include "probes/loopback/loopback_clock.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "probes/loopback/loopback_run.hpp"

namespace rdmi::loopback {

using namespace std::chrono_literals;

TEST_CASE("the timer rate is the largest ticks-per-wall quotient, never an average") {
    const std::vector<ClockSample> samples{{1000, 10us}, {50'000, 100us}, {80'000, 1ms}};
    const auto rate = ticks_per_second_lower_bound(samples);
    REQUIRE(rate.has_value());
    CHECK(*rate == doctest::Approx(5e8));  // 50,000 ticks in 100 us
}

TEST_CASE("a timer that did not advance, or samples without time, give no rate") {
    CHECK_FALSE(ticks_per_second_lower_bound(std::vector<ClockSample>{}).has_value());
    CHECK_FALSE(ticks_per_second_lower_bound(std::vector<ClockSample>{{0, 1ms}, {0, 2ms}}));
    CHECK_FALSE(ticks_per_second_lower_bound(std::vector<ClockSample>{{100, 0ns}}));
    CHECK_FALSE(ticks_per_second_lower_bound(std::vector<ClockSample>{{100, -5ns}}));
    const auto one = ticks_per_second_lower_bound(std::vector<ClockSample>{{0, 1ms}, {7, 1s}});
    REQUIRE(one.has_value());
    CHECK(*one == doctest::Approx(7.0));
}

TEST_CASE("a count that went backwards is no rate: it would bound nothing") {
    // end - start of a timer read behind its start wraps to 2^64 - a little.
    constexpr auto kWrapped = std::numeric_limits<std::uint64_t>::max() - 999;
    const std::vector<ClockSample> mixed{{kWrapped, 2ms}, {50'000, 100us}};
    const auto rate = ticks_per_second_lower_bound(mixed);
    REQUIRE(rate.has_value());
    CHECK(*rate == doctest::Approx(5e8));
    CHECK_FALSE(ticks_per_second_lower_bound(std::vector<ClockSample>{{kWrapped, 2ms}}));
    CHECK_FALSE(ticks_per_second_lower_bound(std::vector<ClockSample>{{kWrappedTicks, 1s}}));
    CHECK(ticks_per_second_lower_bound(std::vector<ClockSample>{{kWrappedTicks - 1, 1s}}));
    const auto bound =
        kernel_time_bound(std::vector<ClockSample>{{kWrapped, 2ms}, {0, 3ms}}, 500ms);
    CHECK(bound.ticks == 0);
    CHECK(bound.description.find("went backwards (a count of 2^63 ticks or more) in 1 of 2 ") !=
          std::string::npos);
}

TEST_CASE("the wait budget is half the kernel run-time limit, the ceiling, or what is left") {
    CHECK(kernel_wait_budget(12ULL, 10s) == kKernelWaitCeiling);
    CHECK(kernel_wait_budget(1ULL, 10s) == 500ms);
    CHECK(kernel_wait_budget(0ULL, 10s) == 0ns);
    CHECK(kernel_wait_budget(std::nullopt, 10s) == kKernelWaitCeiling);
    CHECK(kernel_wait_budget(std::nullopt, 300ms) == 300ms);
    CHECK(kernel_wait_budget(1ULL, 200ms) == 200ms);
    CHECK(kernel_wait_budget(12ULL, -1s) == 0ns);
    // A limit too large to multiply stays the ceiling, not an overflowed small number.
    CHECK(kernel_wait_budget(std::numeric_limits<unsigned long long>::max(), 10s) ==
          kKernelWaitCeiling);
}

TEST_CASE("a tick budget rounds down, is at least 1 and saturates") {
    CHECK(tick_budget(1e9, 1ms) == 1'000'000);
    CHECK(tick_budget(1000.0, 1500us) == 1);  // 1.5 ticks -> 1
    CHECK(tick_budget(1000.0, 999us) == 1);   // 0.999 -> at least 1, never 0 (= unbounded)
    CHECK(tick_budget(1e9, 0ns) == 1);
    CHECK(tick_budget(-5.0, 1s) == 1);
    CHECK(tick_budget(std::numeric_limits<double>::quiet_NaN(), 1s) == 1);
    CHECK(tick_budget(1e30, 1000s) == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("the bound's description names the rate, the ticks and the time, or the fallback") {
    const std::vector<ClockSample> samples{{2'000'000, 2ms}};  // 1e9 ticks/s
    const auto bound = kernel_time_bound(samples, 500ms);
    CHECK(bound.ticks == 500'000'000);
    CHECK(bound.description.find("at least 1e+09 ticks/s") != std::string::npos);
    CHECK(bound.description.find("1 timed launch(es), the longest 2 ms") != std::string::npos);
    CHECK(bound.description.find("after 500000000 ticks, at most 500 ms") != std::string::npos);

    const auto none = kernel_time_bound(std::vector<ClockSample>{{0, 2ms}, {0, 4ms}}, 500ms);
    CHECK(none.ticks == 0);
    CHECK(none.description.find("did not advance in 2 timed launch(es)") != std::string::npos);
    CHECK(none.description.find("poll count only") != std::string::npos);
}

// DOCA 3.3's time_sync application reads __dpa_thread_time() as microseconds: the note must not
// say that no rate is published, and must say why the probe still measures one.
TEST_CASE("the time-bound note states the published microsecond rate and where it applies") {
    for (const char* step : {"dpa-clock", "write"}) {
        CAPTURE(step);
        std::string note;
        for (const auto& n : unconfirmed_notes(step, false)) {
            if (n.find("__dpa_thread_time") != std::string::npos) note = n;
        }
        REQUIRE_FALSE(note.empty());
        CHECK(note.find("not published") == std::string::npos);
        CHECK(note.find("microseconds") != std::string::npos);
        CHECK(note.find("time_sync") != std::string::npos);
        CHECK(note.find("lower bound") != std::string::npos);
    }
}

}  // namespace rdmi::loopback
