// The DPA timer's rate: DOCA 3.3's time_sync application reads __dpa_thread_time() as
// microseconds in a DPA RPC, but no sample states the unit for a kernel-launch kernel
// (docs/loopback.md). So the clock kernel's ticks over the host's wall time bound it from below,
// and a budget converted with a lower bound can only end the wait early.
#include "probes/loopback/loopback_clock.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rdmi::loopback {

std::optional<double> ticks_per_second_lower_bound(std::span<const ClockSample> samples) {
    std::optional<double> best;
    for (const auto& sample : samples) {
        if (sample.ticks == 0 || went_backwards(sample) || sample.wall.count() <= 0) continue;
        const double rate =
            static_cast<double>(sample.ticks) / std::chrono::duration<double>(sample.wall).count();
        if (!best || rate > *best) best = rate;
    }
    return best;
}

std::chrono::nanoseconds kernel_wait_budget(std::optional<unsigned long long> max_run_time_s,
                                            std::chrono::nanoseconds remaining) {
    std::chrono::nanoseconds budget = kKernelWaitCeiling;
    if (max_run_time_s) {
        // Seconds from the library, halved in milliseconds: 1 s of limit gives 500 ms.
        const auto half_ms = std::min<unsigned long long>(*max_run_time_s, 1'000'000) * 500ULL;
        budget = std::min<std::chrono::nanoseconds>(budget, std::chrono::milliseconds(half_ms));
    }
    return std::clamp(remaining, std::chrono::nanoseconds{0}, budget);
}

std::uint64_t tick_budget(double ticks_per_second, std::chrono::nanoseconds budget) {
    const double ticks =
        std::floor(ticks_per_second * std::chrono::duration<double>(budget).count());
    if (!(ticks >= 1.0)) return 1;  // also NaN and negative
    constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
    if (ticks >= static_cast<double>(kMax)) return kMax;
    return static_cast<std::uint64_t>(ticks);
}

namespace {

std::string milliseconds(std::chrono::nanoseconds d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g ms",
                  std::chrono::duration<double, std::milli>(d).count());
    return text;
}

}  // namespace

KernelTimeBound kernel_time_bound(std::span<const ClockSample> samples,
                                  std::chrono::nanoseconds budget) {
    const auto rate = ticks_per_second_lower_bound(samples);
    if (!rate) {
        const auto backwards = std::count_if(samples.begin(), samples.end(), went_backwards);
        const std::string what = backwards == 0
                                     ? "did not advance in " + std::to_string(samples.size())
                                     : "went backwards (a count of 2^63 ticks or more) in " +
                                           std::to_string(backwards) + " of " +
                                           std::to_string(samples.size()) +
                                           " and did not advance in the rest of";
        return {0, "the DPA timer (__dpa_thread_time) " + what +
                       " timed launch(es): the write kernel's wait is bounded by its poll count "
                       "only"};
    }
    std::chrono::nanoseconds longest{0};
    for (const auto& sample : samples) longest = std::max(longest, sample.wall);
    char rate_text[32];
    std::snprintf(rate_text, sizeof rate_text, "%.3g", *rate);
    return {tick_budget(*rate, budget),
            std::string("DPA timer: at least ") + rate_text + " ticks/s (" +
                std::to_string(samples.size()) + " timed launch(es), the longest " +
                milliseconds(longest) + "); the write kernel stops waiting after " +
                std::to_string(tick_budget(*rate, budget)) + " ticks, at most " +
                milliseconds(budget)};
}

}  // namespace rdmi::loopback
