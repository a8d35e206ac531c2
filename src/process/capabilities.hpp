// The capabilities a child that runs vendor code keeps, their names, and dropping the rest in
// the child (docs/reference/containment.md#capabilities).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rdmi {

/// A set of capabilities: bit n is capability number n of linux/capability.h.
using CapabilityMask = std::uint64_t;

/// The bit of one capability number.
constexpr CapabilityMask capability_bit(int number) {
    return CapabilityMask{1} << static_cast<unsigned>(number);
}

/// The names of the capabilities in `mask` ("CAP_IPC_LOCK"), lowest number first; a number
/// this build has no name for is "CAP_<number>".
std::vector<std::string> capability_names(CapabilityMask mask);

/// A step of the containment that failed in a child: the call and its errno. `step` is null
/// when nothing failed. Plain data, so that a forked child can fill it without allocating.
struct ContainmentFailure {
    const char* step = nullptr;
    int error = 0;
    [[nodiscard]] bool failed() const { return step != nullptr; }
};

/// In a forked child, before vendor code runs or a tool is executed: every capability outside
/// `keep` leaves the bounding set (only a process holding CAP_SETPCAP can do that; without it
/// no_new_privs alone keeps an exec from gaining any), the ambient set is cleared, and the
/// effective and permitted sets become `keep` (of what the process holds) and the inheritable
/// set empty. Async-signal-safe: system calls only.
ContainmentFailure drop_capabilities(CapabilityMask keep) noexcept;

}  // namespace rdmi
