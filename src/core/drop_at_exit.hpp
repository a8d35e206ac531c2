// drop_at_exit: leave a large object a run is done with to the process's exit.
#pragma once

#include <type_traits>
#include <utility>

namespace rdmi {

/// Takes `value` (a report's facts and JSON tree, just before the process exits) without
/// freeing it: freeing a tree of thousands of nodes one by one costs more than writing it, and
/// the kernel takes the memory back at exit all at once. Builds with sanitizers
/// (RDMI_PROBE_SANITIZED, or AddressSanitizer's own macro) destroy it as usual, so that leak
/// checking still sees every allocation of the run freed. Only for a caller that runs once per
/// process: each call keeps its object until exit.
template <class T>
void drop_at_exit(T&& value) {
    using Held = std::remove_cvref_t<T>;
#if defined(RDMI_PROBE_SANITIZED) || defined(__SANITIZE_ADDRESS__)
    const Held destroyed_now(std::forward<T>(value));
#else
    // NOLINTNEXTLINE(cppcoreguidelines-owning-memory): never freed, on purpose (see above)
    static_cast<void>(new Held(std::forward<T>(value)));
#endif
}

}  // namespace rdmi
