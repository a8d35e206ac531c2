// Tests for read_dynamic_info over libraries the test build links with the real toolchain:
// what ld.so takes from PT_DYNAMIC, and a one-line malformed gap for whatever is cut or foreign.
#include "loader/elf_dynamic.hpp"

#include <doctest/doctest.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rdmi {
namespace {

const std::string kTrustLibs = std::string(RDMI_TEST_FIXTURES_DIR) + "/trust";

std::string whole_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

bool same_dynamic_info(const DynamicInfo& a, const DynamicInfo& b) {
    return a.elf_class == b.elf_class && a.machine == b.machine && a.soname == b.soname &&
           a.needed == b.needed && a.filtees == b.filtees && a.rpath == b.rpath &&
           a.runpath == b.runpath && a.has_runpath == b.has_runpath &&
           a.has_dynamic == b.has_dynamic && a.interpreter == b.interpreter;
}

}  // namespace

// libelf is handed the image through a mutable pointer; in the host's byte order it must only
// read it: a read-only mapping faults on the first write (SIGSEGV ends the test binary).
TEST_CASE("the dynamic section is read from a read-only mapping") {
    const std::string path = kTrustLibs + "/runpath-doca/lib/libdoca_rdmi.so.3";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    struct stat st {};
    REQUIRE(::fstat(fd, &st) == 0);
    const auto size = static_cast<std::size_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    REQUIRE(map != MAP_FAILED);
    const auto info = read_dynamic_info(std::string_view(static_cast<const char*>(map), size));
    ::munmap(map, size);
    REQUIRE(info.ok());
    CHECK(info->soname == "libdoca_rdmi.so.3");
}

TEST_CASE("the dynamic section is read through the program headers") {
    std::string library = whole_file(kTrustLibs + "/runpath-doca/lib/libdoca_rdmi.so.3");
    auto info = read_dynamic_info(library);
    REQUIRE(info.ok());
    CHECK(info->soname == "libdoca_rdmi.so.3");
    CHECK(info->has_runpath);
    CHECK(info->runpath == "$ORIGIN/../dep");
    // The linker orders DT_NEEDED by the fixture's link graph, not by the command line.
    const auto& needed = info->needed;
    CHECK(std::count(needed.begin(), needed.end(), "libdoca_common.so.3") == 1);
    CHECK(std::count(needed.begin(), needed.end(), "libdoca_verbs.so.3") == 1);
}

TEST_CASE("a truncated dynamic section is malformed, never 'no dependencies'") {
    const std::string bytes = whole_file(kTrustLibs + "/dep/librdmi-fixture-dep.so.1");
    for (std::size_t cut : {std::size_t{10}, std::size_t{70}, bytes.size() / 2}) {
        std::string truncated = bytes.substr(0, cut);
        auto info = read_dynamic_info(truncated);
        CHECK_FALSE(info.ok());
    }
    std::string text = "not an elf at all";
    CHECK_FALSE(read_dynamic_info(text).ok());
}

TEST_CASE("every truncation of a library is its whole answer or a one-line malformed gap") {
    const std::string whole = whole_file(kTrustLibs + "/runpath-doca/lib/libdoca_rdmi.so.3");
    REQUIRE(whole.size() > 1000);
    std::string copy = whole;
    const auto full = read_dynamic_info(copy);
    REQUIRE(full.ok());
    int refused = 0;
    for (std::size_t cut = 0; cut < whole.size(); cut += 7) {
        CAPTURE(cut);
        std::string truncated = whole.substr(0, cut);
        const auto info = read_dynamic_info(truncated);
        if (info.ok()) {
            // Whatever ld.so reads lies before the cut: the same answer, never a shorter one.
            CHECK(same_dynamic_info(*info, *full));
            continue;
        }
        ++refused;
        CHECK(info.gap().reason == GapReason::malformed);
        CHECK(info.gap().message.find('\n') == std::string::npos);
        CHECK_FALSE(info.gap().message.empty());
    }
    CHECK(refused > 0);
}

TEST_CASE("a foreign byte order, an unknown class and a bad program header size are named") {
    const std::string whole = whole_file(kTrustLibs + "/dep/librdmi-fixture-dep.so.1");
    auto gap_of = [](std::string bytes) {
        const auto info = read_dynamic_info(bytes);
        REQUIRE_FALSE(info.ok());
        CHECK(info.gap().reason == GapReason::malformed);
        return info.gap().message;
    };
    std::string swapped = whole;
    swapped[EI_DATA] =
        static_cast<char>(swapped[EI_DATA] == ELFDATA2LSB ? ELFDATA2MSB : ELFDATA2LSB);
    CHECK(gap_of(swapped) == "ELF byte order differs from this machine's");
    std::string classless = whole;
    classless[EI_CLASS] = 9;
    CHECK(gap_of(classless) == "unknown ELF class");
    std::string odd_phentsize = whole;
    REQUIRE(odd_phentsize[EI_CLASS] == ELFCLASS64);
    odd_phentsize[offsetof(Elf64_Ehdr, e_phentsize)] = 7;
    odd_phentsize[offsetof(Elf64_Ehdr, e_phentsize) + 1] = 0;
    CHECK(gap_of(odd_phentsize) == "unexpected program header size 7");
    CHECK(gap_of("\x7f"
                 "ELF") == "not an ELF file");
}

TEST_CASE("program headers beyond the end of the file are malformed, not 'no dependencies'") {
    std::string bytes = whole_file(kTrustLibs + "/dep/librdmi-fixture-dep.so.1");
    REQUIRE(bytes[EI_CLASS] == ELFCLASS64);
    Elf64_Ehdr ehdr{};
    std::memcpy(&ehdr, bytes.data(), sizeof ehdr);
    ehdr.e_phoff = bytes.size() - 8;
    std::memcpy(bytes.data(), &ehdr, sizeof ehdr);
    const auto info = read_dynamic_info(bytes);
    REQUIRE_FALSE(info.ok());
    CHECK(info.gap().message == "program headers run past the end");
}

// A file of DT_NEEDED offsets into one long string: each entry costs 16 bytes of the file, its
// name up to the whole table. 4,000 suffixes of a 10 kB string ask for 20 MB of names from
// 74 kB; the same at 4 MB asked for 100 GB (an abort or the OOM killer, never a verdict).
TEST_CASE("DT_NEEDED names that add up past the bound are malformed, not copied") {
    constexpr std::size_t kEntries = 4000;
    constexpr std::size_t kString = 10000;
    const std::size_t dyn_off = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr);
    const std::size_t dyn_size = (kEntries + 3) * sizeof(Elf64_Dyn);
    const std::size_t str_off = dyn_off + dyn_size;
    const std::size_t size = str_off + kString + 1;
    std::string bytes(size, '\0');
    Elf64_Ehdr ehdr{};
    std::memcpy(ehdr.e_ident, ELFMAG, SELFMAG);
    ehdr.e_ident[EI_CLASS] = ELFCLASS64;
    ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
    ehdr.e_ident[EI_VERSION] = EV_CURRENT;
    ehdr.e_type = ET_DYN;
    ehdr.e_machine = EM_X86_64;
    ehdr.e_version = EV_CURRENT;
    ehdr.e_phoff = sizeof(Elf64_Ehdr);
    ehdr.e_ehsize = sizeof(Elf64_Ehdr);
    ehdr.e_phentsize = sizeof(Elf64_Phdr);
    ehdr.e_phnum = 2;
    std::memcpy(bytes.data(), &ehdr, sizeof ehdr);
    const Elf64_Phdr load{PT_LOAD, PF_R, 0, 0, 0, size, size, 0x1000};
    const Elf64_Phdr dynamic{PT_DYNAMIC, PF_R, dyn_off, dyn_off, dyn_off, dyn_size, dyn_size, 8};
    std::memcpy(bytes.data() + sizeof ehdr, &load, sizeof load);
    std::memcpy(bytes.data() + sizeof ehdr + sizeof load, &dynamic, sizeof dynamic);
    std::vector<Elf64_Dyn> entries;
    for (std::size_t i = 0; i < kEntries; ++i) entries.push_back({DT_NEEDED, {i % kString}});
    entries.push_back({DT_STRTAB, {str_off}});
    entries.push_back({DT_STRSZ, {kString + 1}});
    entries.push_back({DT_NULL, {0}});
    std::memcpy(bytes.data() + dyn_off, entries.data(), dyn_size);
    std::memset(bytes.data() + str_off, 'a', kString);
    REQUIRE(bytes[EI_DATA] == ELFDATA2LSB);  // the host's order on the machines this runs on
    const auto info = read_dynamic_info(bytes);
    REQUIRE_FALSE(info.ok());
    CHECK(info.gap().reason == GapReason::malformed);
    CHECK(info.gap().message == "its dynamic strings total more than 16777216 bytes");
}

}  // namespace rdmi
