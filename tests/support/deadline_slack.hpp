// How late a test lets a bounded call return past its deadline.
#pragma once

#include <chrono>

namespace rdmi::test {

/// A test of a deadline shows that a hung call ends, not how quickly: on two cores shared with
/// compilers, or under the sanitizers, returning can take seconds past the deadline (1.57 s
/// past 0.8 s was seen at a load average of 8). A call that ignored its deadline would hang for
/// good, so this much slack loses nothing.
inline constexpr std::chrono::seconds kDeadlineSlack{5};

}  // namespace rdmi::test
