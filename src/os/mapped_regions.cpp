// A fixed table of lock-free slots: the SIGBUS handler may only read memory that no lock guards
// and that is never freed.
#include "os/mapped_regions.hpp"

#include <array>
#include <atomic>
#include <cstdint>

namespace rdmi {
namespace {

struct Slot {
    std::atomic<std::uintptr_t> base{0};  // 0: free
    std::atomic<std::size_t> size{0};
    std::atomic<const char*> path{nullptr};
};

// More files than are ever mapped at once (the library, one header, a few install files).
std::array<Slot, 64> g_slots;

}  // namespace

void remember_mapping(const void* base, std::size_t size, const char* path) noexcept {
    const auto key = reinterpret_cast<std::uintptr_t>(base);
    for (auto& slot : g_slots) {
        std::uintptr_t expected = 0;
        if (!slot.base.compare_exchange_strong(expected, key)) continue;
        // Claimed; its size is 0 (matches nothing) until the path is in place.
        slot.path.store(path);
        slot.size.store(size);
        return;
    }
}

void forget_mapping(const void* base) noexcept {
    const auto key = reinterpret_cast<std::uintptr_t>(base);
    for (auto& slot : g_slots) {
        if (slot.base.load() == key) {
            slot.size.store(0);
            slot.base.store(0);
            return;
        }
    }
}

const char* mapped_path_at(const void* address) noexcept {
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    for (const auto& slot : g_slots) {
        const std::uintptr_t base = slot.base.load();
        if (base != 0 && at >= base && at - base < slot.size.load()) return slot.path.load();
    }
    return nullptr;
}

}  // namespace rdmi
