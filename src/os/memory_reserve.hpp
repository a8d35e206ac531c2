// A block of memory held back from the start of the run, given up when the heap first runs out.
// A std::bad_alloc unwinds through destructors, and some of them allocate: nlohmann::json frees
// a large tree through a heap-allocated work list, so destroying a half-built document while
// the heap is exhausted calls std::terminate (an abort, not the run's exit 2). With the reserve
// released at the moment the first allocation fails, those destructors find memory again and
// the bad_alloc reaches the run's boundary (cli::guarded), which answers in fixed text.
#pragma once

#include <cstddef>

namespace rdmi {

/// Holds `bytes` back and installs a new-handler that, when an allocation fails, releases them
/// and throws std::bad_alloc (the allocation that failed still fails: the reserve is for the
/// unwinding, not for going on). Arming again after a release holds a new block; arming while
/// armed does nothing. Never throws: a reserve that cannot be had is simply not held.
void arm_memory_reserve(std::size_t bytes) noexcept;

/// The reserve the run holds: room for a work list of 64 K JSON values, more than a bundle's
/// manifest or a report holds in one object or array.
inline constexpr std::size_t kMemoryReserveBytes = std::size_t{1} << 20;

/// True while the reserve is held (armed and not yet released by a failed allocation).
[[nodiscard]] bool memory_reserve_held() noexcept;

}  // namespace rdmi
