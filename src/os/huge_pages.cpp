// MADV_HUGEPAGE over the whole pages of a large array.
#include "os/huge_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>

namespace rdmi {

void advise_huge_pages(const void* data, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (data == nullptr || bytes < kHugePagesFrom) return;
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    if (page == 0 || (page & (page - 1)) != 0) return;
    // Only pages wholly inside the array: the advice must not reach a neighbour's memory.
    const auto start = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
    if (end <= start) return;
    // A refusal (EINVAL: a kernel built without THP) leaves ordinary pages: nothing to report.
    (void)::madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

namespace {

// `bytes` rounded up to whole huge pages; 0 when that overflows.
std::size_t whole_huge_pages(std::size_t bytes) {
    const std::size_t rounded = (bytes + kHugePageSize - 1) & ~(kHugePageSize - 1);
    return rounded < bytes ? 0 : rounded;
}

}  // namespace

void* allocate_huge(std::size_t bytes) {
    if (bytes < kHugePageSize) return ::operator new(bytes);
    const std::size_t size = whole_huge_pages(bytes);
    if (size == 0) throw std::bad_alloc();
    // A mapping of its own, cut to a huge-page boundary: freeing it gives the memory back
    // (heap memory would stay resident until reused, and raise the peak RSS).
    const std::size_t span = size + kHugePageSize;
    if (span < size) throw std::bad_alloc();
    void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const auto aligned = (start + kHugePageSize - 1) & ~(kHugePageSize - 1);
    if (aligned > start) ::munmap(raw, aligned - start);
    if (const auto tail = start + span - (aligned + size); tail > 0)
        ::munmap(reinterpret_cast<void*>(aligned + size), tail);
    auto* data = reinterpret_cast<void*>(aligned);
    advise_huge_pages(data, size);
    return data;
}

void free_huge(void* data, std::size_t bytes) noexcept {
    if (bytes < kHugePageSize) {
        ::operator delete(data);
    } else if (data != nullptr) {
        ::munmap(data, whole_huge_pages(bytes));
    }
}

}  // namespace rdmi
