#include "os/memory_reserve.hpp"

#include <cstdlib>
#include <new>

namespace rdmi {
namespace {

void* reserve = nullptr;

void release_and_throw() {
    if (reserve != nullptr) {
        std::free(reserve);  // NOLINT(cppcoreguidelines-no-malloc): outside operator new's reach
        reserve = nullptr;
    }
    throw std::bad_alloc();
}

}  // namespace

void arm_memory_reserve(std::size_t bytes) noexcept {
    if (reserve == nullptr) {
        // Left untouched: what runs out first is address space (RLIMIT_AS), which the block
        // holds either way, at the cost of one mmap; a cgroup's memory limit ends the process
        // by the OOM killer instead, and no reserve would help there.
        reserve = std::malloc(bytes);  // NOLINT(cppcoreguidelines-no-malloc)
    }
    std::set_new_handler(release_and_throw);
}

bool memory_reserve_held() noexcept {
    return reserve != nullptr;
}

}  // namespace rdmi
