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
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t head = (page - address % page) % page;  // bytes before the first page
    if (bytes < head + page) return;
    const std::size_t length = (bytes - head) & ~(page - 1);
    // madvise() takes a non-const pointer but changes no byte: advice only.
    void* start = const_cast<char*>(static_cast<const char*>(data)) + head;
    // A refusal (EINVAL: a kernel built without THP) leaves ordinary pages: nothing to report.
    (void)::madvise(start, length, MADV_HUGEPAGE);
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
    auto* const base = static_cast<char*>(raw);
    const auto address = reinterpret_cast<std::uintptr_t>(raw);
    const std::size_t head = (kHugePageSize - address % kHugePageSize) % kHugePageSize;
    if (head > 0) ::munmap(base, head);
    if (const std::size_t tail = span - head - size; tail > 0) ::munmap(base + head + size, tail);
    char* const data = base + head;
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
