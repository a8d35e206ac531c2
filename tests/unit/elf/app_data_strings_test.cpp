// Tests for names_in_data(): the NUL-terminated strings of an application's data sections.
#include "elf/app_data_strings.hpp"

#include <doctest/doctest.h>

#include <elf.h>

#include "unit/elf/fixture_audit.hpp"

namespace rdmi {
namespace {

const std::unordered_set<std::string_view> kWanted = {"doca_rdmi_connection_create",
                                                      "doca_rdmi_poster_post"};

// An image whose only section holds `bytes` whole, with these flags and type.
ElfImage one_section(std::string_view bytes, std::uint64_t flags,
                     std::uint32_t type = SHT_PROGBITS) {
    ElfImage image;
    image.sections.emplace_back();
    image.sections.push_back({type, flags, 0, bytes.size()});
    image.section_names = {"", ".rodata"};
    return image;
}

std::vector<std::string> found(std::string_view bytes, std::uint64_t flags = SHF_ALLOC,
                               std::string_view prefix = "doca_") {
    return names_in_data(bytes, one_section(bytes, flags), kWanted, prefix);
}

using Names = std::vector<std::string>;

TEST_CASE("names_in_data: whole strings, merged tails, sorted and unique") {
    using namespace std::string_literals;
    CHECK(found("x\0doca_rdmi_poster_post\0doca_rdmi_connection_create\0"s) ==
          Names{"doca_rdmi_connection_create", "doca_rdmi_poster_post"});
    // A linker may merge a name into the tail of a longer string; a pointer into it is the name.
    CHECK(found("my_doca_rdmi_poster_post\0"s) == Names{"doca_rdmi_poster_post"});
    CHECK(found("doca_rdmi_poster_post\0doca_rdmi_poster_post\0"s) ==
          Names{"doca_rdmi_poster_post"});
    // Without a prefix, strings that start after a NUL.
    CHECK(found("\x01\x02\0doca_rdmi_poster_post\0"s, SHF_ALLOC, "") ==
          Names{"doca_rdmi_poster_post"});
}

TEST_CASE("names_in_data: what is not such a string is not found") {
    using namespace std::string_literals;
    CHECK(found("doca_rdmi_poster_post_ex\0"s).empty());  // a longer name
    CHECK(found("doca_rdmi_poster_pos\0"s).empty());      // a shorter one
    CHECK(found("doca_rdmi_poster_post\0"s, 0).empty());  // not loaded (.comment, debug)
    const std::string bytes("doca_rdmi_poster_post\0", 22);
    CHECK(
        names_in_data(bytes, one_section(bytes, SHF_ALLOC, SHT_STRTAB), kWanted, "doca_").empty());
    CHECK(names_in_data(bytes, one_section(bytes, SHF_ALLOC), {}, "doca_").empty());
}

TEST_CASE("names_in_data: a name at a section's end, and in an executable section") {
    using namespace std::string_literals;
    // In memory the next section, or the linker's zero padding, ends the string.
    CHECK(found("x\0doca_rdmi_poster_post"s) == Names{"doca_rdmi_poster_post"});
    CHECK(found("doca_rdmi_poster_postx"s).empty());
    // `__attribute__((section(".text.x")))` puts a constant among the code.
    CHECK(found("doca_rdmi_poster_post\0"s, SHF_ALLOC | SHF_EXECINSTR) ==
          Names{"doca_rdmi_poster_post"});
}

TEST_CASE("names_in_data: a section past the bytes given is not read") {
    const std::string bytes("doca_rdmi_poster_post\0", 22);
    ElfImage image = one_section(bytes, SHF_ALLOC);
    image.sections[1].size = bytes.size() + 1;
    CHECK(names_in_data(bytes, image, kWanted, "doca_").empty());
    image.sections[1] = {SHT_PROGBITS, SHF_ALLOC, bytes.size() + 1, 1};
    CHECK(names_in_data(bytes, image, kWanted, "doca_").empty());
}

TEST_CASE("names_in_data: linear in a long run of prefixes") {
    // 4 MiB of "doca_" before one NUL: each prefix would otherwise scan (and hash) to the end.
    std::string bytes;
    for (int i = 0; i < (4 << 20) / 5; ++i) bytes += "doca_";
    bytes += "doca_rdmi_poster_post";
    bytes += '\0';
    CHECK(found(bytes) == Names{"doca_rdmi_poster_post"});  // its tail
    bytes.pop_back();
    CHECK(found(bytes) == Names{"doca_rdmi_poster_post"});  // ended by the section's end
    bytes += 'x';
    CHECK(found(bytes).empty());
}

TEST_CASE("names_in_data: the dlsym fixture holds the experimental name in .rodata") {
    const std::string bytes = test::read_host_file(fixture::kAppDlsym);
    const ElfImage image = test::fixture_image(fixture::kAppDlsym);
    CHECK(names_in_data(bytes, image, kWanted, "doca_") == Names{"doca_rdmi_connection_create"});
}

}  // namespace
}  // namespace rdmi
