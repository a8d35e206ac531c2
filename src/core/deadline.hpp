// A wall-clock deadline shared by the whole run and split for each external call.
#pragma once

#include <algorithm>
#include <chrono>

namespace rdmi {

/// A point in steady time after which work must stop.
class Deadline {
  public:
    using Clock = std::chrono::steady_clock;

    /// A deadline `budget` from now.
    explicit Deadline(std::chrono::milliseconds budget) : end_(Clock::now() + budget) {}

    /// Time left, never negative.
    [[nodiscard]] std::chrono::milliseconds remaining() const {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end_ - Clock::now());
        return std::max(left, std::chrono::milliseconds(0));
    }
    [[nodiscard]] bool expired() const { return Clock::now() >= end_; }

    /// The earlier of this deadline and `cap` from now: the bound for one external call.
    [[nodiscard]] Deadline capped(std::chrono::milliseconds cap) const {
        return Deadline(std::min(remaining(), cap));
    }

  private:
    Clock::time_point end_;
};

}  // namespace rdmi
