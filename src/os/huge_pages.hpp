// Transparent huge pages for the few large arrays of a big symbol audit.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace rdmi {

/// The transparent huge page size of x86-64 and of 4 KiB-page aarch64 kernels. Elsewhere the
/// alignment below is merely generous, never wrong.
inline constexpr std::size_t kHugePageSize = std::size_t{2} << 20U;

/// Arrays smaller than this get no advice (a small library's audit makes no system call for
/// it): one huge page at least.
inline constexpr std::size_t kHugePagesFrom = kHugePageSize;

/// Advises the kernel to back the whole pages of [data, data + bytes) with transparent huge
/// pages when they are first touched (MADV_HUGEPAGE), for an array of at least kHugePagesFrom
/// bytes about to be filled. A 100,000-symbol audit otherwise takes some 14,000 page faults,
/// a third of its CPU time. Advice only: nothing about the memory's contents changes, and a
/// kernel without THP (or a refusal) leaves it as it was.
void advise_huge_pages(const void* data, std::size_t bytes);

/// The same for the whole capacity of `array` (call it after reserve(), before filling).
template <class T>
void advise_huge_pages(const std::vector<T>& array) {
    advise_huge_pages(array.data(), array.capacity() * sizeof(T));
}

/// Memory for a large array whose every byte will be used: a mapping of its own, aligned to
/// kHugePageSize and rounded up to whole huge pages, then advised, so that all of it (not only
/// the huge pages that happen to fit inside an ordinary allocation) takes one fault per 2 MiB,
/// and freeing it returns it. Free with free_huge() and the same size. Below kHugePageSize
/// bytes: plain ::operator new. Throws std::bad_alloc when there is no memory.
[[nodiscard]] void* allocate_huge(std::size_t bytes);
void free_huge(void* data, std::size_t bytes) noexcept;

/// A std::allocator that uses allocate_huge(): for the internal arrays of a large audit
/// (hundreds of thousands of small records).
template <class T>
struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() = default;
    template <class U>
    explicit HugePageAllocator(const HugePageAllocator<U>& /*other*/) noexcept {}
    [[nodiscard]] T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
        return static_cast<T*>(allocate_huge(n * sizeof(T)));
    }
    void deallocate(T* data, std::size_t n) noexcept { free_huge(data, n * sizeof(T)); }
    template <class U>
    bool operator==(const HugePageAllocator<U>& /*other*/) const noexcept {
        return true;
    }
};

/// A vector whose storage comes from allocate_huge().
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace rdmi
