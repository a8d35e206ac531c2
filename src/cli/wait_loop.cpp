// The wait's loop: a pure function of its clock, so a test steps it with a fake one.
#include "cli/wait_loop.hpp"

#include <algorithm>
#include <thread>

namespace rdmi::cli {
namespace {

class SteadyWaitClock final : public WaitClock {
  public:
    [[nodiscard]] time_point now() const override { return std::chrono::steady_clock::now(); }
    void sleep_until(time_point until) override { std::this_thread::sleep_until(until); }
};

std::chrono::milliseconds whole_ms(WaitClock::time_point::duration d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d);
}

}  // namespace

WaitClock& WaitClock::steady() {
    static SteadyWaitClock clock;
    return clock;
}

WaitSummary wait_until_passed(const WaitSettings& settings, WaitClock& clock,
                              const std::function<bool()>& evaluate,
                              const std::function<void(const WaitPause&)>& on_pause,
                              const std::function<bool()>& conclude) {
    WaitSummary summary;
    const auto started = clock.now();
    const auto end = started + settings.duration;
    while (true) {
        ++summary.evaluations;
        summary.passed = evaluate();
        auto now = clock.now();
        if (!summary.passed && now >= end && conclude) {
            summary.passed = conclude();
            now = clock.now();
        }
        summary.waited = whole_ms(now - started);
        if (summary.passed || now >= end) return summary;
        const auto next = std::min(now + settings.interval, end);
        on_pause({summary.evaluations, whole_ms(next - now), whole_ms(end - now)});
        clock.sleep_until(next);
    }
}

}  // namespace rdmi::cli
