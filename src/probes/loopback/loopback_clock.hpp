// The write kernel's time bound: how fast the DPA timer ticks, learned from timed launches, and
// the tick budget that keeps the kernel's wait inside the DPA's kernel run-time limit.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace rdmi::loopback {

/// One timed launch of the clock kernel: the DPA timer ticks its spin loop took, and the host's
/// wall time from just before the launch to the completion event (launch overhead included).
struct ClockSample {
    std::uint64_t ticks = 0;
    std::chrono::nanoseconds wall{0};
};

/// The host's wall time a calibration launch should reach before its rate is trusted: long next
/// to a launch's overhead (tens of microseconds), short for a probe.
inline constexpr std::chrono::milliseconds kCalibrationTarget{2};
/// At most this many calibration launches (spins double each time).
inline constexpr int kCalibrationLaunches = 10;
/// Spins of the first calibration launch.
inline constexpr std::uint64_t kCalibrationFirstSpins = std::uint64_t{1} << 14;
/// The longest the write kernel waits for its signal when nothing shorter applies: a loopback
/// write and its signal take microseconds.
inline constexpr std::chrono::milliseconds kKernelWaitCeiling{1000};

/// A count of this many ticks or more is not a measurement: at 100 GHz it would take three
/// years. It is what the clock kernel's unsigned end - start gives when the timer read at the end
/// is behind the one read at the start (the thread moved to another execution unit).
inline constexpr std::uint64_t kWrappedTicks = std::uint64_t{1} << 63;

/// Whether a sample's count went backwards (see kWrappedTicks).
[[nodiscard]] constexpr bool went_backwards(const ClockSample& sample) {
    return sample.ticks >= kWrappedTicks;
}

/// A lower bound of the DPA timer's rate in ticks per second, from the samples: each launch's
/// ticks were counted inside its wall time, so ticks / wall never exceeds the real rate, and the
/// largest quotient is the tightest such bound. A count that went backwards is left out: its
/// quotient would exceed any real rate, and the budget made from it would bound nothing. Empty
/// when no other sample has both ticks and time.
[[nodiscard]] std::optional<double> ticks_per_second_lower_bound(
    std::span<const ClockSample> samples);

/// How long the write kernel may wait: half the DPA's kernel run-time limit when it is known
/// (half: a margin for the launch and the write itself), never more than kKernelWaitCeiling nor
/// than what is left of the run.
[[nodiscard]] std::chrono::nanoseconds kernel_wait_budget(
    std::optional<unsigned long long> max_run_time_s, std::chrono::nanoseconds remaining);

/// `budget` in ticks at `ticks_per_second` (a lower bound, so the real time those ticks take is
/// at most `budget`), rounded down, at least 1 (0 would mean "no time bound" to the kernel) and
/// saturating at the largest count.
[[nodiscard]] std::uint64_t tick_budget(double ticks_per_second, std::chrono::nanoseconds budget);

/// The calibration's outcome, said in one sentence for the step message.
struct KernelTimeBound {
    std::uint64_t ticks = 0;  ///< the tick budget passed to the write kernel; 0 = polls only
    std::string description;
};

/// Turns the samples and the budget into the write kernel's tick budget and its description.
[[nodiscard]] KernelTimeBound kernel_time_bound(std::span<const ClockSample> samples,
                                                std::chrono::nanoseconds budget);

}  // namespace rdmi::loopback
