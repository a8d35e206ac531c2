// advise_huge_pages marks the pages of a large array (VmFlags "hg" in /proc/self/smaps) and
// leaves a small one alone.
#include "os/huge_pages.hpp"

#include <doctest/doctest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rdmi {
namespace {

// The VmFlags line of the mapping that holds `address`, from /proc/self/smaps.
std::string vm_flags_at(const void* address) {
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t start = 0, end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> start >> dash >> end && dash == '-' && line.find(':') > 12) {
            inside = start <= at && at < end;
        } else if (inside && line.starts_with("VmFlags:")) {
            return line;
        }
    }
    return {};
}

// Whether this system records MADV_HUGEPAGE at all, tried directly: a kernel without
// transparent huge pages refuses it, and an emulator (qemu-user) may accept it and do nothing,
// so the flags the tests look for would never show whatever advise_huge_pages() did.
bool kernel_has_thp() {
    if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) return false;
    const std::size_t size = 2 * kHugePageSize;
    void* probe = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (probe == MAP_FAILED) return false;
    const bool recorded =
        ::madvise(probe, size, MADV_HUGEPAGE) == 0 &&
        vm_flags_at(static_cast<char*>(probe) + size / 2).find(" hg") != std::string::npos;
    ::munmap(probe, size);
    if (!recorded)
        MESSAGE("MADV_HUGEPAGE is not recorded here (no THP, or an emulator): not checked");
    return recorded;
}

TEST_CASE("advise_huge_pages marks a large array's whole pages for huge pages") {
    if (!kernel_has_thp()) return;
    std::vector<std::uint64_t> large;
    large.reserve(kHugePagesFrom);  // 8 bytes each: 8x the threshold
    advise_huge_pages(large);
    // Somewhere in the middle: the first and last partial pages are left out on purpose.
    const auto* middle = large.data() + large.capacity() / 2;
    CHECK(vm_flags_at(middle).find(" hg") != std::string::npos);
}

TEST_CASE("advise_huge_pages leaves a small range and the partial pages at either end alone") {
    if (!kernel_has_thp()) return;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t size = kHugePagesFrom + 2 * page;
    // A mapping of its own: no other allocation's advice can show in its flags.
    void* mapped =
        ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(mapped != MAP_FAILED);
    auto* base = static_cast<char*>(mapped);
    advise_huge_pages(base + 1, kHugePagesFrom - 1);  // below the threshold
    CHECK(vm_flags_at(base + size / 2).find(" hg") == std::string::npos);
    // One byte into the first page to the end of the last but one: the first page is partial.
    advise_huge_pages(base + 1, kHugePagesFrom + page - 1);
    CHECK(vm_flags_at(base).find(" hg") == std::string::npos);
    CHECK(vm_flags_at(base + page).find(" hg") != std::string::npos);
    CHECK(vm_flags_at(base + page + kHugePagesFrom - 1).find(" hg") != std::string::npos);
    CHECK(vm_flags_at(base + page + kHugePagesFrom).find(" hg") == std::string::npos);
    advise_huge_pages(nullptr, kHugePagesFrom);  // no array: no call, no crash
    const std::vector<int> empty;
    advise_huge_pages(empty);
    ::munmap(mapped, size);
}

}  // namespace
}  // namespace rdmi

namespace rdmi {
namespace {

TEST_CASE("allocate_huge gives huge-page-aligned, advised memory from one huge page up") {
    void* large = allocate_huge(kHugePageSize + 1);
    REQUIRE(large != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(large) % kHugePageSize == 0);
    if (kernel_has_thp()) CHECK(vm_flags_at(large).find(" hg") != std::string::npos);
    free_huge(large, kHugePageSize + 1);
    void* small = allocate_huge(100);  // ordinary memory, freed the ordinary way
    REQUIRE(small != nullptr);
    free_huge(small, 100);
    HugeVector<std::uint32_t> array;
    array.reserve(kHugePageSize);  // 4 bytes each
    for (std::uint32_t i = 0; i < 1000; ++i) array.push_back(i);
    CHECK(reinterpret_cast<std::uintptr_t>(array.data()) % kHugePageSize == 0);
    CHECK(array[999] == 999);
}

}  // namespace
}  // namespace rdmi
