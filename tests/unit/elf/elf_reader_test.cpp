// Tests for the ELF reader: fixture libraries of every flavour, a real distribution library
// checked against readelf, and malformed inputs derived from a fixture's bytes.
#include "elf/elf_reader.hpp"

#include <doctest/doctest.h>
#include <elf.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "fixture_libs.hpp"
#include "support/native_arch.hpp"
#include "unit/elf/read_fixture.hpp"

namespace rdmi {
namespace {

const ElfSymbol* find_symbol(const std::vector<ElfSymbol>& symbols, std::string_view name,
                             std::string_view version = {}) {
    for (const auto& s : symbols) {
        if (s.name == name && (version.empty() || s.version == version)) return &s;
    }
    return nullptr;
}

ElfImage parse_fixture(const char* path) {
    auto image = parse_elf(test::read_host_file(path));
    REQUIRE_MESSAGE(image.ok(), path << ": " << (image.ok() ? "" : image.gap().message));
    return std::move(image).value();
}

// The function names the fixture version script puts in each node
// (docs/reference/symbol-stability.md#rdmi-names).
const std::vector<std::string> kExperimentalNames = {
    "doca_rdmi_connection_create",
    "doca_rdmi_connection_set_pd",
    "doca_rdmi_connection_init_receive",
    "doca_rdmi_connection_dpa_completion_attach",
    "doca_rdmi_connection_cq_attach",
    "doca_rdmi_connection_set_input",
    "doca_rdmi_connection_get_dpa_handle",
    "doca_rdmi_connection_recv_ack",
    "doca_rdmi_connection_get_app_rq_info",
    "doca_rdmi_connection_set_qp_create_out",
    "doca_rdmi_connection_set_qp_modify_out",
    "doca_rdmi_connection_set_qp_query_out",
    "doca_rdmi_poster_create",
    "doca_rdmi_poster_set_pd",
    "doca_rdmi_poster_dpa_completion_attach",
    "doca_rdmi_poster_cq_attach",
    "doca_rdmi_poster_set_input",
    "doca_rdmi_poster_get_dpa_handle",
    "doca_rdmi_poster_post",
};
const std::vector<std::string> kReleaseNames = {
    "doca_rdmi_abi_version", "doca_rdmi_connection_as_ctx", "doca_rdmi_connection_destroy",
    "doca_rdmi_poster_destroy", "doca_rdmi_poster_get_max_num_cqe"};

}  // namespace

TEST_CASE("parse_elf reads the versioned fixture library") {
    const auto image = parse_fixture(fixture::kVersionedLib);
    CHECK(image.kind == ElfKind::shared_object);
    CHECK(image.elf_class == 64);
    CHECK(image.endian == ElfEndian::little);
    CHECK(image.machine_name() == test::kNativeMachine);  // built by this build's compiler
    CHECK(image.soname == "libdoca_rdmi.so.3");
    CHECK(std::find(image.needed.begin(), image.needed.end(), "libc.so.6") != image.needed.end());
    REQUIRE(image.version_defs.size() == 3);
    CHECK(image.version_defs[0].is_base);
    CHECK(image.version_defs[0].name == "libdoca_rdmi.so.3");
    CHECK(image.defines_version("DOCA_3.3"));
    CHECK(image.defines_version("EXPERIMENTAL"));
    CHECK_FALSE(image.defines_version("libdoca_rdmi.so.3"));
    CHECK_FALSE(image.defines_version("DOCA_3.2"));
    CHECK(std::find(image.section_names.begin(), image.section_names.end(), ".gnu.version_d") !=
          image.section_names.end());
    // The linker merged .text.experimental into .text
    // (docs/reference/symbol-stability.md#sections).
    CHECK(std::find(image.section_names.begin(), image.section_names.end(), ".text.experimental") ==
          image.section_names.end());
    CHECK(image.static_symbols.empty());  // .symtab is read for relocatable files only

    for (const auto& name : kExperimentalNames) {
        CAPTURE(name);
        const auto* s = find_symbol(image.dynamic_symbols, name);
        REQUIRE(s != nullptr);
        CHECK(s->defined);
        CHECK(s->type == SymbolType::func);
        CHECK(s->binding == SymbolBinding::global);
        CHECK(s->visibility == SymbolVisibility::default_);
        CHECK(s->version == "EXPERIMENTAL");
        CHECK_FALSE(s->version_hidden);
        CHECK(s->section == ".text");
        CHECK(s->size > 0);
        CHECK(s->display_name() == name + "@@EXPERIMENTAL");
    }
    for (const auto& name : kReleaseNames) {
        CAPTURE(name);
        const auto* s = find_symbol(image.dynamic_symbols, name);
        REQUIRE(s != nullptr);
        CHECK(s->version == "DOCA_3.3");
        CHECK_FALSE(s->version_hidden);
    }
    const auto* data = find_symbol(image.dynamic_symbols, "doca_rdmi_abi_version");
    REQUIRE(data != nullptr);
    CHECK(data->type == SymbolType::object);
    CHECK(data->size == 4);
    CHECK(data->section == ".rodata");
    CHECK(find_symbol(image.dynamic_symbols, "rdmi_fixture_internal_helper") == nullptr);
    // The absolute symbols GNU ld adds for each node.
    const auto* node = find_symbol(image.dynamic_symbols, "EXPERIMENTAL");
    REQUIRE(node != nullptr);
    CHECK(node->section == "*ABS*");
    // libc functions the library calls are not there (trivial bodies), but undefined entries
    // such as __cxa_finalize@GLIBC_2.2.5 carry their requirement's file.
    const auto* finalize = find_symbol(image.dynamic_symbols, "__cxa_finalize");
    REQUIRE(finalize != nullptr);
    CHECK_FALSE(finalize->defined);
    CHECK(finalize->binding == SymbolBinding::weak);
    CHECK(finalize->version_file == "libc.so.6");
    CHECK(finalize->version_hidden);
    CHECK(finalize->section.empty());
}

TEST_CASE("parse_elf reads the unversioned, older and mismatched variants") {
    const auto unversioned = parse_fixture(fixture::kUnversionedLib);
    CHECK(unversioned.version_defs.empty());
    const auto* create = find_symbol(unversioned.dynamic_symbols, "doca_rdmi_connection_create");
    REQUIRE(create != nullptr);
    CHECK(create->version.empty());
    CHECK(create->display_name() == "doca_rdmi_connection_create");
    // -fvisibility=hidden keeps the helper out even without a version script.
    CHECK(find_symbol(unversioned.dynamic_symbols, "rdmi_fixture_internal_helper") == nullptr);

    const auto older = parse_fixture(fixture::kOlderLib);
    CHECK(older.defines_version("DOCA_3.2"));
    CHECK_FALSE(older.defines_version("DOCA_3.3"));
    CHECK(find_symbol(older.dynamic_symbols, "doca_rdmi_connection_get_app_rq_info") == nullptr);

    const auto mismatch = parse_fixture(fixture::kMismatchLib);
    CHECK(find_symbol(mismatch.dynamic_symbols, "doca_rdmi_connection_recv_ack")->version ==
          "DOCA_3.3");
    CHECK(find_symbol(mismatch.dynamic_symbols, "doca_rdmi_poster_destroy")->version ==
          "EXPERIMENTAL");
    CHECK(find_symbol(mismatch.dynamic_symbols, "doca_rdmi_poster_post") == nullptr);
    CHECK(find_symbol(mismatch.dynamic_symbols, "doca_rdmi_connection_debug_dump") != nullptr);
}

TEST_CASE("parse_elf reads aarch64, big-endian aarch64 and 32-bit i386 libraries") {
    if (!fixture::kHaveAarch64) {
        MESSAGE("aarch64 binutils not found at configure time; skipped");
        return;
    }
    struct Case {
        const char* path;
        unsigned elf_class;
        ElfEndian endian;
        const char* machine;
    };
    std::vector<Case> cases = {{fixture::kAarch64Lib, 64, ElfEndian::little, "aarch64"},
                               {fixture::kAarch64BeLib, 64, ElfEndian::big, "aarch64"}};
    if (fixture::kHaveI386) cases.push_back({fixture::kI386Lib, 32, ElfEndian::little, "i386"});
    for (const auto& c : cases) {
        CAPTURE(c.path);
        const auto image = parse_fixture(c.path);
        CHECK(image.kind == ElfKind::shared_object);
        CHECK(image.elf_class == c.elf_class);
        CHECK(image.endian == c.endian);
        CHECK(image.machine_name() == c.machine);
        CHECK(image.soname == "libdoca_rdmi.so.3");
        CHECK(image.defines_version("EXPERIMENTAL"));
        CHECK(find_symbol(image.dynamic_symbols, "doca_rdmi_connection_create")->display_name() ==
              "doca_rdmi_connection_create@@EXPERIMENTAL");
        CHECK(find_symbol(image.dynamic_symbols, "doca_rdmi_poster_post")->display_name() ==
              "doca_rdmi_poster_post@@EXPERIMENTAL");
        const auto* data = find_symbol(image.dynamic_symbols, "doca_rdmi_abi_version");
        REQUIRE(data != nullptr);
        CHECK(data->display_name() == "doca_rdmi_abi_version@@DOCA_3.3");
        CHECK(data->size == 4);
        CHECK(data->type == SymbolType::object);
        // One name, two versions: the hidden old one and the default.
        const auto* old_ctx =
            find_symbol(image.dynamic_symbols, "doca_rdmi_connection_as_ctx", "EXPERIMENTAL");
        const auto* new_ctx =
            find_symbol(image.dynamic_symbols, "doca_rdmi_connection_as_ctx", "DOCA_3.3");
        REQUIRE(old_ctx != nullptr);
        REQUIRE(new_ctx != nullptr);
        CHECK(old_ctx->version_hidden);
        CHECK(old_ctx->display_name() == "doca_rdmi_connection_as_ctx@EXPERIMENTAL");
        CHECK_FALSE(new_ctx->version_hidden);
        CHECK(find_symbol(image.dynamic_symbols, "as_ctx_stable") == nullptr);
    }
}

TEST_CASE("parse_archive reads the static library's members and their sections") {
    const auto bytes = test::read_host_file(fixture::kStaticLib);
    CHECK(looks_like_archive(bytes));
    auto members = parse_archive(bytes);
    REQUIRE(members.ok());
    REQUIRE(members->size() == 1);
    const auto& member = members->front();
    CHECK(member.name == "doca_rdmi.c.o");
    REQUIRE(member.image.has_value());
    CHECK_FALSE(member.gap.has_value());
    CHECK(member.image->kind == ElfKind::relocatable);
    CHECK(member.image->dynamic_symbols.empty());
    const auto& symbols = member.image->static_symbols;
    for (const auto& name : kExperimentalNames) {
        CAPTURE(name);
        const auto* s = find_symbol(symbols, name);
        REQUIRE(s != nullptr);
        CHECK(s->defined);
        CHECK(s->section == ".text.experimental");
    }
    CHECK(find_symbol(symbols, "doca_rdmi_poster_get_max_num_cqe")->section == ".text.deprecated");
    CHECK(find_symbol(symbols, "doca_rdmi_connection_destroy")->section == ".text");
    CHECK(find_symbol(symbols, "rdmi_fixture_internal_helper")->visibility ==
          SymbolVisibility::hidden);
    CHECK(find_symbol(symbols, "doca_rdmi_abi_version")->type == SymbolType::object);

    // parse_elf refuses an archive and parse_archive an ELF file, with a reason.
    auto as_elf = parse_elf(bytes);
    REQUIRE_FALSE(as_elf.ok());
    CHECK(as_elf.gap().reason == GapReason::malformed);
    CHECK(as_elf.gap().message.find("archive") != std::string::npos);
    auto not_archive = parse_archive(test::read_host_file(fixture::kVersionedLib));
    REQUIRE_FALSE(not_archive.ok());
    CHECK(not_archive.gap().message.find("!<arch>") != std::string::npos);
}

TEST_CASE("parse_archive keeps a non-ELF member as a gap and rejects thin and truncated ones") {
    // A hand-made archive: one text member, then the fixture app object.
    const auto object = test::read_host_file(fixture::kAppObject);
    auto header = [](const std::string& name, std::size_t size) {
        char buf[61];
        std::snprintf(buf, sizeof buf, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name.c_str(), "0", "0",
                      "0", "644", size);
        return std::string(buf, 60);
    };
    std::string archive = "!<arch>\n";
    archive += header("notes.txt/", 5) + "hello" + "\n";
    archive += header("app.o/", object.size()) + object;
    if (object.size() % 2 != 0) archive += "\n";
    auto members = parse_archive(archive);
    REQUIRE_MESSAGE(members.ok(), (members.ok() ? "" : members.gap().message));
    REQUIRE(members->size() == 2);
    CHECK(members->at(0).name == "notes.txt");
    CHECK_FALSE(members->at(0).image.has_value());
    REQUIRE(members->at(0).gap.has_value());
    CHECK(members->at(0).gap->message == "not an ELF object");
    CHECK(members->at(1).name == "app.o");
    REQUIRE(members->at(1).image.has_value());
    CHECK(find_symbol(members->at(1).image->static_symbols, "main")->defined);

    // Truncated anywhere inside the second member: a gap naming the member, never a short read.
    for (std::size_t cut :
         {archive.size() - 1, archive.size() - object.size() / 2, std::size_t{8} + 60 + 6 + 30}) {
        CAPTURE(cut);
        auto truncated = parse_archive(std::string_view(archive).substr(0, cut));
        REQUIRE_FALSE(truncated.ok());
        CHECK(truncated.gap().reason == GapReason::malformed);
    }
    // A size field is decimal digits, space-padded: anything else is refused, not read as far
    // as the digits go ("5x" is not 5).
    for (const char* field : {"5x        ", "5\t        ", "0005z     "}) {
        CAPTURE(std::string(field));
        std::string bad = archive;
        bad.replace(8 + 48, 10, field);
        auto refused = parse_archive(bad);
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.gap().message == "archive member header at byte 8: bad size field");
    }
    CHECK(parse_archive("!<arch>\n").ok());  // an empty archive is valid
    CHECK(parse_archive("!<arch>\n")->empty());
    auto thin = parse_archive("!<thin>\n");
    REQUIRE_FALSE(thin.ok());
    CHECK(thin.gap().message.find("thin") != std::string::npos);
    CHECK_FALSE(parse_archive("").ok());
}

TEST_CASE("parse_elf reads a relocatable object's .symtab, undefined symbols included") {
    const auto image = parse_fixture(fixture::kAppObject);
    CHECK(image.kind == ElfKind::relocatable);
    const auto* create = find_symbol(image.static_symbols, "doca_rdmi_connection_create");
    REQUIRE(create != nullptr);
    CHECK_FALSE(create->defined);
    CHECK(create->section.empty());
    const auto* main_fn = find_symbol(image.static_symbols, "main");
    REQUIRE(main_fn != nullptr);
    CHECK(main_fn->defined);
    CHECK(main_fn->type == SymbolType::func);
}

// ---- A real library nobody here wrote, against readelf -------------------------------------

namespace {

struct ReadelfRow {
    std::string name;
    std::string version;
    bool hidden = false;
    bool undefined = false;
    std::string type;
    std::string bind;
    std::string vis;
    std::uint64_t size = 0;
};

// Runs `readelf --dyn-syms -W` and parses its table independently of the code under test.
std::map<std::size_t, ReadelfRow> readelf_dyn_syms(const std::string& path) {
    std::map<std::size_t, ReadelfRow> rows;
    const std::string command = "readelf --dyn-syms -W '" + path + "' 2>/dev/null";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string text;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
    REQUIRE(pclose(pipe) == 0);
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string num, value, size, type, bind, vis, ndx, name;
        if (!(fields >> num >> value >> size >> type >> bind >> vis >> ndx) || num.size() < 2 ||
            num.back() != ':' || !std::isdigit(static_cast<unsigned char>(num[0])))
            continue;
        fields >> name;
        const std::size_t index = std::stoul(num.substr(0, num.size() - 1));
        if (index == 0) continue;
        ReadelfRow row;
        row.type = type;
        row.bind = bind;
        row.vis = vis;
        row.undefined = ndx == "UND";
        row.size = std::stoull(size, nullptr, 0);
        if (const auto at2 = name.find("@@"); at2 != std::string::npos) {
            row.name = name.substr(0, at2);
            row.version = name.substr(at2 + 2);
        } else if (const auto at = name.find('@'); at != std::string::npos) {
            row.name = name.substr(0, at);
            row.version = name.substr(at + 1);
            row.hidden = true;
        } else {
            row.name = name;
        }
        rows[index] = row;
    }
    return rows;
}

std::string upper(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

}  // namespace

TEST_CASE("parse_elf agrees with readelf on real Debian libraries, symbol by symbol") {
    const std::vector<std::string> libraries = {"/lib/x86_64-linux-gnu/libc.so.6",
                                                "/usr/lib/x86_64-linux-gnu/libelf.so.1",
                                                "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"};
    int compared = 0;
    for (const auto& path : libraries) {
        auto probe = RootedFs::open("/");
        if (!probe->exists(path)) continue;
        CAPTURE(path);
        const auto image = parse_fixture(path.c_str());
        const auto rows = readelf_dyn_syms(path);
        REQUIRE(rows.size() == image.dynamic_symbols.size());
        int hidden = 0;
        for (const auto& [index, row] : rows) {
            const auto symbol_index = index;  // clang 14 lambdas cannot capture a binding
            CAPTURE(symbol_index);
            const auto& s = image.dynamic_symbols.at(index - 1);
            REQUIRE(s.name == row.name);
            CHECK(s.defined == !row.undefined);
            CHECK(upper(to_string(s.type)) == (row.type == "IFUNC" ? "IFUNC" : row.type));
            CHECK(upper(to_string(s.binding)) == row.bind);
            CHECK(upper(to_string(s.visibility)) == row.vis);
            CHECK(s.size == row.size);
            // readelf omits the version of the absolute symbol naming a version node itself.
            if (row.version.empty() && s.section == "*ABS*" && s.version == s.name) {
                ++compared;
                continue;
            }
            CHECK(s.version == row.version);
            CHECK(s.version_hidden == row.hidden);
            hidden += s.version_hidden && s.defined ? 1 : 0;
            ++compared;
        }
        if (path.find("libc.so") != std::string::npos)
            CHECK(hidden > 100);  // libc keeps hundreds of compatibility versions
    }
    CHECK(compared > 3000);
}

// ---- Malformed inputs derived from a real fixture ------------------------------------------

namespace {

void expect_malformed(std::string_view bytes, std::string_view needle = {}) {
    auto result = parse_elf(bytes);
    REQUIRE_FALSE(result.ok());
    CHECK(result.gap().reason == GapReason::malformed);
    CHECK_FALSE(result.gap().message.empty());
    CHECK(result.gap().message.find('\n') == std::string::npos);
    if (!needle.empty())
        CHECK_MESSAGE(result.gap().message.find(needle) != std::string::npos, result.gap().message);
}

template <typename T>
T load(const std::string& bytes, std::size_t offset) {
    T value;
    REQUIRE(offset + sizeof(T) <= bytes.size());
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

template <typename T>
void store(std::string& bytes, std::size_t offset, const T& value) {
    REQUIRE(offset + sizeof(T) <= bytes.size());
    std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

// The fixture is a little-endian ELF64 built on this x86_64 host.
struct Raw {
    std::string bytes;
    Elf64_Ehdr ehdr{};
    std::vector<Elf64_Shdr> shdrs;

    explicit Raw(std::string b) : bytes(std::move(b)) {
        ehdr = load<Elf64_Ehdr>(bytes, 0);
        for (unsigned i = 0; i < ehdr.e_shnum; ++i)
            shdrs.push_back(load<Elf64_Shdr>(bytes, ehdr.e_shoff + i * sizeof(Elf64_Shdr)));
    }
    [[nodiscard]] std::size_t shdr_offset(std::size_t index) const {
        return ehdr.e_shoff + index * sizeof(Elf64_Shdr);
    }
    [[nodiscard]] std::size_t section_of_type(std::uint32_t type) const {
        for (std::size_t i = 0; i < shdrs.size(); ++i) {
            if (shdrs[i].sh_type == type) return i;
        }
        FAIL("no section of type " << type);
        return 0;
    }
};

}  // namespace

TEST_CASE("parse_elf turns truncation at every header boundary into a one-line gap") {
    const Raw raw(test::read_host_file(fixture::kVersionedLib));
    REQUIRE(raw.ehdr.e_ident[EI_CLASS] == ELFCLASS64);
    std::vector<std::size_t> cuts = {1, 3, 4, 5, 15, 16, 17, 32, 52, 63, 64, 65};
    cuts.push_back(raw.ehdr.e_phoff);
    cuts.push_back(raw.ehdr.e_phoff + raw.ehdr.e_phnum * sizeof(Elf64_Phdr) - 1);
    cuts.push_back(raw.ehdr.e_phoff + raw.ehdr.e_phnum * sizeof(Elf64_Phdr));
    for (const auto& shdr : raw.shdrs) {
        if (shdr.sh_type == SHT_NOBITS || shdr.sh_type == SHT_NULL) continue;
        cuts.push_back(shdr.sh_offset);
        cuts.push_back(shdr.sh_offset + shdr.sh_size / 2);
        cuts.push_back(shdr.sh_offset + shdr.sh_size);
    }
    for (std::size_t i = 0; i <= raw.shdrs.size(); ++i)
        cuts.push_back(raw.shdr_offset(i) - (i == raw.shdrs.size() ? 1 : 0));
    cuts.push_back(raw.bytes.size() - 1);
    int checked = 0;
    for (const auto cut : cuts) {
        if (cut == 0 || cut >= raw.bytes.size()) continue;
        CAPTURE(cut);
        expect_malformed(std::string_view(raw.bytes).substr(0, cut));
        ++checked;
    }
    CHECK(checked > 60);
    expect_malformed("", "empty");
    expect_malformed(
        "\x7f"
        "EL",
        "");
    expect_malformed("#!/bin/sh\necho not an ELF file\n", "not an ELF file");
}

TEST_CASE("parse_elf rejects corrupted headers, tables and indexes with the problem named") {
    const Raw raw(test::read_host_file(fixture::kVersionedLib));

    SUBCASE("wrong class byte") {
        auto bytes = raw.bytes;
        bytes[EI_CLASS] = 3;
        expect_malformed(bytes, "class");
        bytes[EI_CLASS] = ELFCLASS32;  // a 64-bit file read as 32-bit
        expect_malformed(bytes);
    }
    SUBCASE("wrong data byte") {
        auto bytes = raw.bytes;
        bytes[EI_DATA] = 7;
        expect_malformed(bytes, "byte order");
    }
    SUBCASE("section headers past the end") {
        auto bytes = raw.bytes;
        store<Elf64_Off>(bytes, offsetof(Elf64_Ehdr, e_shoff), bytes.size() - 10);
        expect_malformed(bytes, "past the end");
    }
    SUBCASE("absurd section count") {
        auto bytes = raw.bytes;
        store<Elf64_Half>(bytes, offsetof(Elf64_Ehdr, e_shnum), 0xfeff);
        expect_malformed(bytes);
    }
    SUBCASE("section-name table index past the table") {
        auto bytes = raw.bytes;
        store<Elf64_Half>(bytes, offsetof(Elf64_Ehdr, e_shstrndx),
                          static_cast<Elf64_Half>(raw.shdrs.size() + 3));
        expect_malformed(bytes);
    }
    SUBCASE("section-name table index equal to the section count") {
        // The first index past the table: a check with > instead of >= lets libelf look for a
        // section that does not exist, and the message no longer names the real problem.
        auto bytes = raw.bytes;
        const auto count = static_cast<Elf64_Half>(raw.shdrs.size());
        store<Elf64_Half>(bytes, offsetof(Elf64_Ehdr, e_shstrndx), count);
        expect_malformed(bytes, "section-name string table index " + std::to_string(count) +
                                    " past the section table (" + std::to_string(count) +
                                    " sections)");
    }
    SUBCASE("a section's data past the end") {
        auto bytes = raw.bytes;
        const auto index = raw.section_of_type(SHT_DYNSYM);
        store<Elf64_Off>(bytes, raw.shdr_offset(index) + offsetof(Elf64_Shdr, sh_offset),
                         bytes.size() + 100);
        expect_malformed(bytes, "extends past the end");
    }
    SUBCASE("a section whose offset plus size wraps around 2^64") {
        // offset + size overflows to a small number: a range check that adds them is fooled.
        auto bytes = raw.bytes;
        const auto index = raw.section_of_type(SHT_DYNSYM);
        const Elf64_Off offset = raw.shdrs[index].sh_offset;
        store<Elf64_Xword>(bytes, raw.shdr_offset(index) + offsetof(Elf64_Shdr, sh_size),
                           std::numeric_limits<Elf64_Xword>::max() - offset + 17);
        expect_malformed(bytes, "extends past the end");
    }
    SUBCASE("symbol name index past the end of .dynstr") {
        auto bytes = raw.bytes;
        const auto& dynsym = raw.shdrs[raw.section_of_type(SHT_DYNSYM)];
        store<Elf64_Word>(bytes,
                          dynsym.sh_offset + sizeof(Elf64_Sym) + offsetof(Elf64_Sym, st_name),
                          0x7ffffff0U);
        // The section index is named as one, not as if it were the table's size.
        expect_malformed(bytes, "string offset 2147483632 outside its string table (section " +
                                    std::to_string(dynsym.sh_link) + ")");
    }
    SUBCASE(".gnu.version shorter than .dynsym") {
        auto bytes = raw.bytes;
        const auto index = raw.section_of_type(SHT_GNU_versym);
        store<Elf64_Xword>(bytes, raw.shdr_offset(index) + offsetof(Elf64_Shdr, sh_size), 4);
        expect_malformed(bytes, ".gnu.version has 2 entries");
    }
    SUBCASE("a version index naming no version") {
        auto bytes = raw.bytes;
        const auto& versym = raw.shdrs[raw.section_of_type(SHT_GNU_versym)];
        store<Elf64_Half>(bytes, versym.sh_offset + 2 * sizeof(Elf64_Half), 0x1234);
        expect_malformed(bytes, "names no version");
    }
    SUBCASE(".gnu.version one entry short: entry 0 counts too") {
        // Parallel to .dynsym including its null entry: as many entries as .dynsym has symbols
        // (entry 0 included) is the minimum; one less must be refused before any entry is read.
        auto bytes = raw.bytes;
        const auto& dynsym = raw.shdrs[raw.section_of_type(SHT_DYNSYM)];
        const auto symbols = dynsym.sh_size / sizeof(Elf64_Sym);
        const auto index = raw.section_of_type(SHT_GNU_versym);
        store<Elf64_Xword>(bytes, raw.shdr_offset(index) + offsetof(Elf64_Shdr, sh_size),
                           (symbols - 1) * sizeof(Elf64_Half));
        expect_malformed(bytes, ".gnu.version has " + std::to_string(symbols - 1) +
                                    " entries for " + std::to_string(symbols) + " dynamic symbols");
    }
    SUBCASE("a version index one past the highest version the file defines or needs") {
        auto parsed = parse_elf(raw.bytes);
        REQUIRE(parsed.ok());
        unsigned highest = 0;
        for (const auto& def : parsed->version_defs)
            highest = std::max<unsigned>(highest, def.index);
        for (const auto& need : parsed->version_needs) {
            for (const auto& entry : need.versions)
                highest = std::max<unsigned>(highest, entry.index & 0x7fffU);
        }
        REQUIRE(highest > 1);
        auto bytes = raw.bytes;
        const auto& versym = raw.shdrs[raw.section_of_type(SHT_GNU_versym)];
        store<Elf64_Half>(bytes, versym.sh_offset + sizeof(Elf64_Half),
                          static_cast<Elf64_Half>(highest + 1));
        expect_malformed(bytes,
                         "version index " + std::to_string(highest + 1) + " names no version");
        // The highest index itself is fine.
        store<Elf64_Half>(bytes, versym.sh_offset + sizeof(Elf64_Half),
                          static_cast<Elf64_Half>(highest));
        CHECK(parse_elf(bytes).ok());
    }
    SUBCASE("a verdef chain pointing past its section") {
        auto bytes = raw.bytes;
        const auto& verdef = raw.shdrs[raw.section_of_type(SHT_GNU_verdef)];
        store<Elf64_Word>(bytes, verdef.sh_offset + offsetof(Elf64_Verdef, vd_next), 0x7fff0000);
        expect_malformed(bytes, "chain");
    }
    SUBCASE("a verdef count larger than the section") {
        auto bytes = raw.bytes;
        const auto index = raw.section_of_type(SHT_GNU_verdef);
        store<Elf64_Word>(bytes, raw.shdr_offset(index) + offsetof(Elf64_Shdr, sh_info), 100000);
        expect_malformed(bytes);
    }
    SUBCASE("a symbol's section index past the section table") {
        auto bytes = raw.bytes;
        const auto& dynsym = raw.shdrs[raw.section_of_type(SHT_DYNSYM)];
        const auto count = dynsym.sh_size / sizeof(Elf64_Sym);
        bool patched = false;
        for (std::size_t i = 1; i < count && !patched; ++i) {
            const auto at = dynsym.sh_offset + i * sizeof(Elf64_Sym);
            const auto sym = load<Elf64_Sym>(bytes, at);
            if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE) {
                store<Elf64_Section>(bytes, at + offsetof(Elf64_Sym, st_shndx), 0xfe00);
                patched = true;
            }
        }
        REQUIRE(patched);
        expect_malformed(bytes, "past the section table");
    }
    SUBCASE("SHN_XINDEX without a .symtab_shndx table") {
        // SHN_XINDEX says "the real index is in .symtab_shndx"; without that table the symbol's
        // section is unknown. Reading it as index 0 would turn a defined symbol into an
        // undefined one.
        auto bytes = raw.bytes;
        const auto& dynsym = raw.shdrs[raw.section_of_type(SHT_DYNSYM)];
        const auto count = dynsym.sh_size / sizeof(Elf64_Sym);
        std::size_t patched = 0;
        for (std::size_t i = 1; i < count && patched == 0; ++i) {
            const auto at = dynsym.sh_offset + i * sizeof(Elf64_Sym);
            const auto sym = load<Elf64_Sym>(bytes, at);
            if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE) {
                store<Elf64_Section>(bytes, at + offsetof(Elf64_Sym, st_shndx), SHN_XINDEX);
                patched = i;
            }
        }
        REQUIRE(patched != 0);
        expect_malformed(bytes, ".dynsym symbol " + std::to_string(patched) +
                                    ": SHN_XINDEX without .symtab_shndx");
    }
    SUBCASE("a symbol's section index equal to the section count") {
        // The first index past the table: a check with > instead of >= reads one past it.
        auto bytes = raw.bytes;
        const auto& dynsym = raw.shdrs[raw.section_of_type(SHT_DYNSYM)];
        const auto count = dynsym.sh_size / sizeof(Elf64_Sym);
        const auto past = static_cast<Elf64_Section>(raw.shdrs.size());
        bool patched = false;
        for (std::size_t i = 1; i < count && !patched; ++i) {
            const auto at = dynsym.sh_offset + i * sizeof(Elf64_Sym);
            const auto sym = load<Elf64_Sym>(bytes, at);
            if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE) {
                store<Elf64_Section>(bytes, at + offsetof(Elf64_Sym, st_shndx), past);
                patched = true;
            }
        }
        REQUIRE(patched);
        expect_malformed(bytes,
                         "section index " + std::to_string(past) + " past the section table");
    }
}

TEST_CASE("parse_elf survives random corruption of a real fixture without crashing") {
    // Not a proof, but under ASan/UBSan any out-of-bounds read in the reader or libelf shows.
    const auto original = test::read_host_file(fixture::kVersionedLib);
    std::mt19937 rng(20260101);
    std::uniform_int_distribution<std::size_t> position(0, original.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    int failed = 0;
    for (int round = 0; round < 400; ++round) {
        auto bytes = original;
        for (int flips = 0; flips < 8; ++flips) bytes[position(rng)] = static_cast<char>(byte(rng));
        auto result = parse_elf(bytes);
        if (!result.ok()) {
            ++failed;
            CHECK(result.gap().message.find('\n') == std::string::npos);
        }
    }
    MESSAGE(failed << " of 400 corrupted copies were rejected");
    // Eight random bytes land in a header or table often enough: a reader that accepted every
    // copy would not be checking anything, and the loop above would have asserted nothing.
    CHECK(failed > 0);
}

}  // namespace rdmi

namespace rdmi {

TEST_CASE("parse_archive survives random corruption of a real archive without crashing") {
    const auto original = test::read_host_file(fixture::kStaticLib);
    std::mt19937 rng(99);
    std::uniform_int_distribution<std::size_t> position(0, original.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    int rejected = 0;
    for (int round = 0; round < 300; ++round) {
        auto bytes = original;
        for (int flips = 0; flips < 6; ++flips) bytes[position(rng)] = static_cast<char>(byte(rng));
        auto result = parse_archive(bytes);
        if (!result.ok()) {
            ++rejected;
            CHECK(result.gap().message.find('\n') == std::string::npos);
            continue;
        }
        for (const auto& member : *result)
            CHECK(member.image.has_value() != member.gap.has_value());
    }
    MESSAGE(rejected << " of 300 corrupted archives were rejected whole");
}

}  // namespace rdmi
