// check --wait: evaluate again and again until the requirements pass or the wait ends, so that a
// boot-time unit can be ordered after "a DPA-capable port is ACTIVE".
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>

namespace rdmi::cli {

/// The time a wait runs on: the steady clock in a run, a fake one in the tests.
class WaitClock {
  public:
    using time_point = std::chrono::steady_clock::time_point;
    WaitClock() = default;
    WaitClock(const WaitClock&) = delete;
    WaitClock& operator=(const WaitClock&) = delete;
    WaitClock(WaitClock&&) = delete;
    WaitClock& operator=(WaitClock&&) = delete;
    virtual ~WaitClock() = default;

    [[nodiscard]] virtual time_point now() const = 0;
    /// Returns at `until` or later. A signal ends the process meanwhile (cli/interrupt.hpp):
    /// nothing is left to resume.
    virtual void sleep_until(time_point until) = 0;

    /// std::chrono::steady_clock and std::this_thread::sleep_until.
    static WaitClock& steady();
};

/// --wait and --interval.
struct WaitSettings {
    std::chrono::milliseconds duration{0};  ///< how long to keep evaluating
    std::chrono::milliseconds interval{0};  ///< the pause after an evaluation that did not pass
};

/// Where a wait stands after an evaluation that did not pass, for the progress line and the log.
struct WaitPause {
    std::size_t evaluations = 0;         ///< made so far
    std::chrono::milliseconds pause{0};  ///< until the next one
    std::chrono::milliseconds left{0};   ///< of the wait, from now
};

/// How a wait ended.
struct WaitSummary {
    bool passed = false;          ///< the last evaluation passed
    std::size_t evaluations = 0;  ///< how many ran (at least one)
    std::chrono::milliseconds waited{
        0};  ///< from the first evaluation's start to the last one's end
};

/// Runs `evaluate` (true: the requirements pass) until it passes or `settings.duration` has
/// passed since the first call. After each evaluation that does not pass, `on_pause` is told,
/// then the loop sleeps `settings.interval`, or only until the wait's end when that is sooner:
/// the wait's end always gets one last evaluation, so a wait longer than the first evaluation
/// evaluates at least twice. The last evaluation's verdict is the run's, so nothing is judged
/// after the end. When the wait runs out after an evaluation that did not pass, `conclude`
/// (when given) completes that last evaluation and its answer is the run's: an evaluation that
/// judged from fewer reads than its document needs (check --wait's polls) is made whole there.
WaitSummary wait_until_passed(const WaitSettings& settings, WaitClock& clock,
                              const std::function<bool()>& evaluate,
                              const std::function<void(const WaitPause&)>& on_pause,
                              const std::function<bool()>& conclude = {});

}  // namespace rdmi::cli
