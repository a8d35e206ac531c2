// libelf-backed reader: every offset, count and string index is checked before it is trusted.
#include "elf/elf_reader.hpp"

#include "elf/compiler_bytecode.hpp"
#include "os/huge_pages.hpp"

#include <gelf.h>
#include <libelf.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace rdmi {
namespace {

// Thrown inside the reader; parse_elf/parse_archive turn it into a Gap at the boundary.
struct MalformedElf : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// No legitimate file comes near this (a -ffunction-sections object of a very large library has
// a few hundred thousand sections); it bounds the per-section work on hostile input.
constexpr std::size_t kMaxSections = std::size_t{1} << 22U;
constexpr std::size_t kMaxArchiveMembers = std::size_t{1} << 20U;
constexpr unsigned kVersionIndexMask = 0x7fffU;
constexpr unsigned kVersionHiddenBit = 0x8000U;

[[noreturn]] void fail(const std::string& problem) {
    throw MalformedElf(problem);
}

std::string libelf_error() {
    const char* message = elf_errmsg(-1);
    return message != nullptr ? message : "unknown libelf error";
}

void init_libelf() {
    static const bool ok = elf_version(EV_CURRENT) != EV_NONE;
    if (!ok) fail("libelf refuses EV_CURRENT");
}

// Owns an Elf descriptor; elf_end on scope exit.
class ElfHandle {
  public:
    explicit ElfHandle(Elf* elf) : elf_(elf) {}
    ~ElfHandle() { elf_end(elf_); }
    ElfHandle(const ElfHandle&) = delete;
    ElfHandle& operator=(const ElfHandle&) = delete;
    [[nodiscard]] Elf* get() const { return elf_; }

  private:
    Elf* elf_;
};

// True when [offset, offset + size) lies inside a file of `file_size` bytes, without overflow.
bool fits(std::uint64_t offset, std::uint64_t size, std::uint64_t file_size) {
    return offset <= file_size && size <= file_size - offset;
}

// The product of a count and an entry size, or a failure when it overflows.
std::uint64_t table_bytes(std::uint64_t count, std::uint64_t entry_size, const char* what) {
    if (entry_size != 0 && count > std::numeric_limits<std::uint64_t>::max() / entry_size)
        fail(std::string(what) + " size overflows");
    return count * entry_size;
}

struct SectionInfo {
    Elf_Scn* scn = nullptr;
    GElf_Shdr shdr{};
    std::size_t index = 0;
};

// The sections the reader needs, located in one pass over the section headers.
struct Layout {
    SectionInfo dynsym, symtab, symtab_shndx, dynamic, versym, verdef, verneed;
};

const char* string_at(Elf* elf, std::size_t strtab_index, std::uint64_t offset,
                      const std::string& what) {
    const char* text = elf_strptr(elf, strtab_index, offset);
    if (text == nullptr) {
        fail(what + ": string offset " + std::to_string(offset) +
             " outside its string table (section " + std::to_string(strtab_index) + ")");
    }
    return text;
}

// string_at() for a symbol's name, whose message (`where`) is made only when it is needed.
template <typename Where>
std::string_view symbol_name(Elf* elf, std::size_t strtab_index, std::uint64_t offset,
                             const Where& where) {
    const char* text = elf_strptr(elf, strtab_index, offset);
    if (text == nullptr) return string_at(elf, strtab_index, offset, where());
    return text;
}

Elf_Data* section_data(const SectionInfo& section, const char* what) {
    Elf_Data* data = elf_getdata(section.scn, nullptr);
    if (data == nullptr) {
        fail(std::string("cannot read ") + what + " (section " + std::to_string(section.index) +
             "): " + libelf_error());
    }
    return data;
}

void check_identity(Elf* elf, ElfImage& image) {
    std::size_t ident_size = 0;
    const char* ident = elf_getident(elf, &ident_size);
    if (ident == nullptr || ident_size < EI_NIDENT) fail("truncated ELF identification");
    const auto elf_class = static_cast<unsigned char>(ident[EI_CLASS]);
    const auto data = static_cast<unsigned char>(ident[EI_DATA]);
    if (elf_class != ELFCLASS32 && elf_class != ELFCLASS64)
        fail("unsupported ELF class byte " + std::to_string(elf_class));
    if (data != ELFDATA2LSB && data != ELFDATA2MSB)
        fail("unsupported ELF data (byte order) byte " + std::to_string(data));
    image.elf_class = elf_class == ELFCLASS32 ? 32 : 64;
    image.endian = data == ELFDATA2LSB ? ElfEndian::little : ElfEndian::big;
}

ElfKind kind_of(unsigned e_type) {
    switch (e_type) {
        case ET_REL:
            return ElfKind::relocatable;
        case ET_EXEC:
            return ElfKind::executable;
        case ET_DYN:
            return ElfKind::shared_object;
        case ET_CORE:
            return ElfKind::core;
        default:
            return ElfKind::other;
    }
}

// Checks one header table (count entries of entry_size at offset) against the file size.
void check_table(const char* what, std::uint64_t offset, std::uint64_t count,
                 std::uint64_t entry_size, std::uint64_t expected_entry_size,
                 std::uint64_t file_size) {
    if (count == 0) return;
    if (entry_size != expected_entry_size) {
        fail(std::string(what) + " entry size " + std::to_string(entry_size) + ", expected " +
             std::to_string(expected_entry_size));
    }
    if (!fits(offset, table_bytes(count, entry_size, what), file_size)) {
        fail(std::string(what) + " (" + std::to_string(count) + " entries at offset " +
             std::to_string(offset) + ") extends past the end of the file (" +
             std::to_string(file_size) + " bytes)");
    }
}

// Checks the header tables against the file size before libelf walks them. The raw ELF header
// fields are checked first: libelf reports zero sections when the table is cut off, which
// would otherwise read as a file without sections.
void check_header_tables(Elf* elf, const GElf_Ehdr& ehdr, std::uint64_t file_size,
                         std::size_t& shnum) {
    const bool is32 = gelf_getclass(elf) == ELFCLASS32;
    const std::uint64_t ehdr_size = is32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
    const std::uint64_t shent = is32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr);
    const std::uint64_t phent = is32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);
    if (file_size < ehdr_size) {
        fail("truncated ELF header (" + std::to_string(file_size) + " of " +
             std::to_string(ehdr_size) + " bytes)");
    }
    if (ehdr.e_ehsize != ehdr_size) {
        fail("ELF header size " + std::to_string(ehdr.e_ehsize) + ", expected " +
             std::to_string(ehdr_size));
    }
    // e_shnum == 0 with e_shoff != 0 means the count lives in section 0 (extended numbering).
    const std::uint64_t raw_shnum = ehdr.e_shoff != 0 && ehdr.e_shnum == 0 ? 1 : ehdr.e_shnum;
    check_table("section header table", ehdr.e_shoff, raw_shnum, ehdr.e_shentsize, shent,
                file_size);
    check_table("program header table", ehdr.e_phoff, ehdr.e_phnum, ehdr.e_phentsize, phent,
                file_size);
    if (elf_getshdrnum(elf, &shnum) != 0) fail("bad section count: " + libelf_error());
    if (shnum > kMaxSections) fail("absurd section count " + std::to_string(shnum));
    if (shnum != ehdr.e_shnum && ehdr.e_shnum != 0)
        fail("section count " + std::to_string(ehdr.e_shnum) + " unreadable");
    check_table("section header table", ehdr.e_shoff, shnum, ehdr.e_shentsize, shent, file_size);
    // Without section headers the symbols, versions and dependencies cannot be read (the
    // loader would still run the file from its program headers): a gap, never "nothing found".
    // e_shnum 0 with a table present names extended numbering, so section 0 must give the count.
    if (shnum == 0) {
        fail(ehdr.e_shoff == 0
                 ? "no section header table (e_shoff 0): symbols and dependencies cannot be read"
                 : "e_shnum 0 (extended section numbering) but section 0 gives no section "
                   "count: symbols and dependencies cannot be read");
    }
}

Layout read_sections(Elf* elf, std::uint64_t file_size, std::size_t shnum, ElfImage& image) {
    Layout layout;
    // elf_getshdrstrndx applies extended numbering: e_shstrndx SHN_XINDEX means section 0's
    // sh_link holds the index, as readelf reads it.
    std::size_t shstrndx = 0;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        fail("bad section-name string table index: " + libelf_error());
    if (shstrndx >= shnum) {
        fail("section-name string table index " + std::to_string(shstrndx) +
             " past the section table (" + std::to_string(shnum) + " sections)");
    }
    image.section_names.reserve(shnum);
    image.sections.reserve(shnum);
    for (std::size_t i = 0; i < shnum; ++i) {
        SectionInfo info;
        info.index = i;
        info.scn = elf_getscn(elf, i);
        if (info.scn == nullptr || gelf_getshdr(info.scn, &info.shdr) == nullptr)
            fail("cannot read section header " + std::to_string(i) + ": " + libelf_error());
        const std::string where = "section " + std::to_string(i);
        if (info.shdr.sh_type != SHT_NOBITS && i != 0 &&
            !fits(info.shdr.sh_offset, info.shdr.sh_size, file_size)) {
            fail(where + " (offset " + std::to_string(info.shdr.sh_offset) + ", size " +
                 std::to_string(info.shdr.sh_size) + ") extends past the end of the file (" +
                 std::to_string(file_size) + " bytes)");
        }
        // Section 0 describes no contents (under extended numbering its size is a count).
        if (i == 0) {
            image.sections.emplace_back();
        } else {
            image.sections.push_back({info.shdr.sh_type, info.shdr.sh_flags, info.shdr.sh_offset,
                                      info.shdr.sh_type == SHT_NOBITS ? 0 : info.shdr.sh_size});
        }
        // e_shstrndx == SHN_UNDEF is legal: the sections simply have no names.
        image.section_names.emplace_back(
            i == 0 || shstrndx == SHN_UNDEF
                ? ""
                : string_at(elf, shstrndx, info.shdr.sh_name, where + " name"));
        switch (info.shdr.sh_type) {
            case SHT_DYNSYM:
                layout.dynsym = info;
                break;
            case SHT_SYMTAB:
                layout.symtab = info;
                break;
            case SHT_SYMTAB_SHNDX:
                layout.symtab_shndx = info;
                break;
            case SHT_DYNAMIC:
                layout.dynamic = info;
                break;
            case SHT_GNU_versym:
                layout.versym = info;
                break;
            case SHT_GNU_verdef:
                layout.verdef = info;
                break;
            case SHT_GNU_verneed:
                layout.verneed = info;
                break;
            default:
                break;
        }
    }
    return layout;
}

void read_dynamic(Elf* elf, const Layout& layout, ElfImage& image) {
    const SectionInfo& dynamic = layout.dynamic;
    if (dynamic.scn == nullptr) return;
    Elf_Data* data = section_data(dynamic, ".dynamic");
    const std::size_t entry = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
    const std::size_t count = entry == 0 ? 0 : dynamic.shdr.sh_size / entry;
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Dyn dyn;
        if (gelf_getdyn(data, static_cast<int>(i), &dyn) == nullptr)
            fail(".dynamic entry " + std::to_string(i) + " unreadable: " + libelf_error());
        if (dyn.d_tag == DT_NULL) break;
        // The loader finds the symbol and version tables through these tags, not through
        // section types: a table it would use that the section headers do not show is a part
        // of the file this reader would miss.
        struct {
            GElf_Sxword tag;
            const char* name;
            const SectionInfo* section;
        } const tables[] = {{DT_SYMTAB, "DT_SYMTAB", &layout.dynsym},
                            {DT_VERSYM, "DT_VERSYM", &layout.versym},
                            {DT_VERNEED, "DT_VERNEED", &layout.verneed},
                            {DT_VERDEF, "DT_VERDEF", &layout.verdef}};
        for (const auto& table : tables) {
            if (dyn.d_tag == table.tag && table.section->scn == nullptr) {
                fail(std::string(".dynamic has ") + table.name +
                     " but no section of that table's type: the section headers do not match "
                     "what the loader reads");
            }
        }
        if (dyn.d_tag == DT_SONAME) {
            image.soname = string_at(elf, dynamic.shdr.sh_link, dyn.d_un.d_val, "DT_SONAME");
        } else if (dyn.d_tag == DT_NEEDED) {
            image.needed.emplace_back(
                string_at(elf, dynamic.shdr.sh_link, dyn.d_un.d_val, "DT_NEEDED"));
        }
    }
}

// Follows a chain of `next` offsets inside one section. Each step must move forward and stay
// inside the data, so a cyclic or runaway chain ends with an error instead of a hang.
int advance(std::uint64_t offset, std::uint64_t next, std::size_t data_size, const char* what) {
    if (next == 0 || next >= data_size || offset >= data_size - next ||
        offset + next > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        fail(std::string(what) + " chain points past the end of its section");
    return static_cast<int>(offset + next);
}

void read_verdef(Elf* elf, const SectionInfo& verdef, ElfImage& image) {
    if (verdef.scn == nullptr) return;
    Elf_Data* data = section_data(verdef, ".gnu.version_d");
    // Every entry takes at least sizeof(GElf_Verdef) bytes, so this bounds a lying sh_info.
    const std::size_t limit = data->d_size / sizeof(GElf_Verdef) + 1;
    int offset = 0;
    for (std::size_t n = 0; n < verdef.shdr.sh_info && n < limit; ++n) {
        GElf_Verdef def;
        if (gelf_getverdef(data, offset, &def) == nullptr)
            fail(".gnu.version_d entry " + std::to_string(n) + " unreadable: " + libelf_error());
        VersionDef out;
        out.index = def.vd_ndx;
        out.is_base = (def.vd_flags & VER_FLG_BASE) != 0;
        out.is_weak = (def.vd_flags & VER_FLG_WEAK) != 0;
        int aux_offset = 0;
        for (unsigned a = 0; a < def.vd_cnt; ++a) {
            aux_offset = a == 0 ? advance(static_cast<std::uint64_t>(offset), def.vd_aux,
                                          data->d_size, ".gnu.version_d")
                                : aux_offset;
            GElf_Verdaux aux;
            if (gelf_getverdaux(data, aux_offset, &aux) == nullptr)
                fail(".gnu.version_d aux entry unreadable: " + libelf_error());
            std::string name = string_at(elf, verdef.shdr.sh_link, aux.vda_name, "verdef name");
            if (a == 0) {
                out.name = std::move(name);
            } else {
                out.parents.push_back(std::move(name));
            }
            if (a + 1 < def.vd_cnt) {
                aux_offset = advance(static_cast<std::uint64_t>(aux_offset), aux.vda_next,
                                     data->d_size, ".gnu.version_d aux");
            }
        }
        image.version_defs.push_back(std::move(out));
        if (def.vd_next == 0) {
            if (n + 1 < verdef.shdr.sh_info) {
                fail(".gnu.version_d announces " + std::to_string(verdef.shdr.sh_info) +
                     " entries, its chain ends after " + std::to_string(n + 1));
            }
            break;
        }
        offset = advance(static_cast<std::uint64_t>(offset), def.vd_next, data->d_size,
                         ".gnu.version_d");
    }
}

void read_verneed(Elf* elf, const SectionInfo& verneed, ElfImage& image) {
    if (verneed.scn == nullptr) return;
    Elf_Data* data = section_data(verneed, ".gnu.version_r");
    const std::size_t limit = data->d_size / sizeof(GElf_Verneed) + 1;
    int offset = 0;
    for (std::size_t n = 0; n < verneed.shdr.sh_info && n < limit; ++n) {
        GElf_Verneed need;
        if (gelf_getverneed(data, offset, &need) == nullptr)
            fail(".gnu.version_r entry " + std::to_string(n) + " unreadable: " + libelf_error());
        VersionNeed out;
        out.file = string_at(elf, verneed.shdr.sh_link, need.vn_file, "verneed file");
        int aux_offset = 0;
        for (unsigned a = 0; a < need.vn_cnt; ++a) {
            aux_offset = a == 0 ? advance(static_cast<std::uint64_t>(offset), need.vn_aux,
                                          data->d_size, ".gnu.version_r")
                                : aux_offset;
            GElf_Vernaux aux;
            if (gelf_getvernaux(data, aux_offset, &aux) == nullptr)
                fail(".gnu.version_r aux entry unreadable: " + libelf_error());
            VersionNeedEntry entry;
            entry.index = aux.vna_other;
            entry.is_weak = (aux.vna_flags & VER_FLG_WEAK) != 0;
            entry.name = string_at(elf, verneed.shdr.sh_link, aux.vna_name, "verneed name");
            out.versions.push_back(std::move(entry));
            if (a + 1 < need.vn_cnt) {
                aux_offset = advance(static_cast<std::uint64_t>(aux_offset), aux.vna_next,
                                     data->d_size, ".gnu.version_r aux");
            }
        }
        image.version_needs.push_back(std::move(out));
        if (need.vn_next == 0) {
            if (n + 1 < verneed.shdr.sh_info) {
                fail(".gnu.version_r announces " + std::to_string(verneed.shdr.sh_info) +
                     " entries, its chain ends after " + std::to_string(n + 1));
            }
            break;
        }
        offset = advance(static_cast<std::uint64_t>(offset), need.vn_next, data->d_size,
                         ".gnu.version_r");
    }
}

// What a `.gnu.version` index stands for: a definition, or a requirement from a file. The texts
// are the image's own copies, which the symbols view.
struct VersionSlot {
    bool used = false;
    std::string_view name;
    std::string_view file;  // empty for a definition
    bool required = false;  // a `.gnu.version_r` entry
};

std::vector<VersionSlot> version_slots(const ElfImage& image, TextArena& strings) {
    std::vector<VersionSlot> slots;
    auto put = [&slots](unsigned index, VersionSlot slot) {
        index &= kVersionIndexMask;
        if (index >= slots.size()) slots.resize(index + 1);
        slots[index] = slot;
    };
    for (const auto& def : image.version_defs)
        put(def.index, {true, strings.copy(def.name), {}, false});
    for (const auto& need : image.version_needs) {
        const std::string_view file = strings.copy(need.file);
        for (const auto& entry : need.versions)
            put(entry.index, {true, strings.copy(entry.name), file, true});
    }
    return slots;
}

SymbolType type_of(unsigned type) {
    switch (type) {
        case STT_NOTYPE:
            return SymbolType::notype;
        case STT_OBJECT:
            return SymbolType::object;
        case STT_FUNC:
            return SymbolType::func;
        case STT_SECTION:
            return SymbolType::section;
        case STT_FILE:
            return SymbolType::file;
        case STT_COMMON:
            return SymbolType::common;
        case STT_TLS:
            return SymbolType::tls;
        case STT_GNU_IFUNC:
            return SymbolType::ifunc;
        default:
            return SymbolType::other;
    }
}

SymbolBinding binding_of(unsigned binding) {
    switch (binding) {
        case STB_LOCAL:
            return SymbolBinding::local;
        case STB_GLOBAL:
            return SymbolBinding::global;
        case STB_WEAK:
            return SymbolBinding::weak;
        case STB_GNU_UNIQUE:
            return SymbolBinding::unique;
        default:
            return SymbolBinding::other;
    }
}

SymbolVisibility visibility_of(unsigned other) {
    switch (other & 0x3U) {
        case STV_INTERNAL:
            return SymbolVisibility::internal;
        case STV_HIDDEN:
            return SymbolVisibility::hidden;
        case STV_PROTECTED:
            return SymbolVisibility::protected_;
        default:
            return SymbolVisibility::default_;
    }
}

// Reads a symbol table (without entry 0), resolving names and section names; the texts are
// copied into `strings` (one bump copy per name, not one heap string).
std::vector<ElfSymbol> read_symbols(Elf* elf, const SectionInfo& table,
                                    const SectionInfo& shndx_table, const ElfImage& image,
                                    TextArena& strings, const char* what) {
    std::vector<ElfSymbol> symbols;
    if (table.scn == nullptr) return symbols;
    Elf_Data* data = section_data(table, what);
    Elf_Data* shndx = nullptr;
    if (shndx_table.scn != nullptr && shndx_table.shdr.sh_link == table.index)
        shndx = section_data(shndx_table, ".symtab_shndx");
    const std::size_t entry = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
    const std::size_t count = entry == 0 ? 0 : table.shdr.sh_size / entry;
    if (count > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        fail(std::string(what) + ": absurd symbol count " + std::to_string(count));
    symbols.reserve(count == 0 ? 0 : count - 1);
    advise_huge_pages(symbols);
    // Each section's name copied once, when a symbol first names it.
    std::vector<std::string_view> section_names(image.section_names.size());
    std::vector<bool> section_named(image.section_names.size());
    for (std::size_t i = 1; i < count; ++i) {
        GElf_Sym sym;
        Elf32_Word extended_index = 0;
        if (gelf_getsymshndx(data, shndx, static_cast<int>(i), &sym, &extended_index) == nullptr) {
            fail(std::string(what) + " symbol " + std::to_string(i) +
                 " unreadable: " + libelf_error());
        }
        ElfSymbol out;
        // The message is built only on failure: this runs 100k times for a large library.
        auto where = [&] { return std::string(what) + " symbol " + std::to_string(i); };
        out.name = strings.copy(symbol_name(elf, table.shdr.sh_link, sym.st_name, where));
        out.raw_type = sym.st_info & 0xfU;
        out.type = type_of(out.raw_type);
        out.binding = binding_of(static_cast<unsigned>(sym.st_info >> 4U));
        out.visibility = visibility_of(sym.st_other);
        out.value = sym.st_value;
        out.size = sym.st_size;
        std::size_t section = sym.st_shndx;
        if (sym.st_shndx == SHN_XINDEX) {
            if (shndx == nullptr) fail(where() + ": SHN_XINDEX without .symtab_shndx");
            section = extended_index;
        }
        out.defined = section != SHN_UNDEF;
        if (sym.st_shndx == SHN_ABS) {
            out.section = "*ABS*";
        } else if (sym.st_shndx == SHN_COMMON) {
            out.section = "*COM*";
        } else if (out.defined && sym.st_shndx != SHN_XINDEX && sym.st_shndx >= SHN_LORESERVE) {
            out.section = "*RES*";
        } else if (out.defined) {
            if (section >= image.section_names.size()) {
                fail(where() + ": section index " + std::to_string(section) +
                     " past the section table");
            }
            if (!section_named[section]) {
                section_names[section] = strings.copy(image.section_names[section]);
                section_named[section] = true;
            }
            out.section = section_names[section];
        }
        symbols.push_back(std::move(out));
    }
    return symbols;
}

void apply_versions(Elf* elf, const SectionInfo& versym, ElfImage& image, TextArena& strings) {
    if (versym.scn == nullptr || image.dynamic_symbols.empty()) return;
    Elf_Data* data = section_data(versym, ".gnu.version");
    const std::size_t entry = gelf_fsize(elf, ELF_T_HALF, 1, EV_CURRENT);
    const std::size_t count = entry == 0 ? 0 : versym.shdr.sh_size / entry;
    // .gnu.version is parallel to .dynsym including its null entry 0.
    if (count < image.dynamic_symbols.size() + 1) {
        fail(".gnu.version has " + std::to_string(count) + " entries for " +
             std::to_string(image.dynamic_symbols.size() + 1) + " dynamic symbols");
    }
    const auto slots = version_slots(image, strings);
    for (std::size_t i = 0; i < image.dynamic_symbols.size(); ++i) {
        GElf_Versym raw = 0;
        if (gelf_getversym(data, static_cast<int>(i + 1), &raw) == nullptr)
            fail(".gnu.version entry " + std::to_string(i + 1) + " unreadable: " + libelf_error());
        const unsigned index = raw & kVersionIndexMask;
        // 0 is VER_NDX_LOCAL and 1 VER_NDX_GLOBAL: unversioned.
        if (index <= 1) continue;
        auto& symbol = image.dynamic_symbols[i];
        if (index >= slots.size() || !slots[index].used) {
            fail(".gnu.version entry " + std::to_string(i + 1) + " (" + std::string(symbol.name) +
                 "): version index " + std::to_string(index) + " names no version");
        }
        symbol.version = slots[index].name;
        if (slots[index].required) {
            symbol.version_file = slots[index].file;
            symbol.version_hidden = true;
        } else {
            symbol.version_hidden = (raw & kVersionHiddenBit) != 0;
        }
    }
}

ElfImage read_image(Elf* elf, std::uint64_t file_size) {
    ElfImage image;
    check_identity(elf, image);
    GElf_Ehdr ehdr;
    if (gelf_getehdr(elf, &ehdr) == nullptr) fail("unreadable ELF header: " + libelf_error());
    image.kind = kind_of(ehdr.e_type);
    image.machine = ehdr.e_machine;
    std::size_t shnum = 0;
    check_header_tables(elf, ehdr, file_size, shnum);
    const Layout layout = read_sections(elf, file_size, shnum, image);
    read_dynamic(elf, layout, image);
    read_verdef(elf, layout.verdef, image);
    read_verneed(elf, layout.verneed, image);
    auto strings = std::make_shared<TextArena>();
    image.dynamic_symbols = read_symbols(elf, layout.dynsym, {}, image, *strings, ".dynsym");
    apply_versions(elf, layout.versym, image, *strings);
    if (image.kind == ElfKind::relocatable) {
        image.static_symbols =
            read_symbols(elf, layout.symtab, layout.symtab_shndx, image, *strings, ".symtab");
    }
    image.strings = std::move(strings);
    return image;
}

// The decimal size field (bytes 48..57) of the `ar` member header at `at`.
std::uint64_t declared_member_size(std::string_view archive, std::uint64_t at) {
    constexpr std::uint64_t kHeaderSize = 60;
    constexpr std::size_t kSizeField = 48;
    constexpr std::size_t kSizeWidth = 10;
    if (!fits(at, kHeaderSize, archive.size()))
        fail("truncated archive member header at byte " + std::to_string(at));
    const std::string_view field = archive.substr(at + kSizeField, kSizeWidth);
    std::uint64_t size = 0;
    bool digits = false;
    for (const char c : field) {
        if (c == ' ') break;
        if (c < '0' || c > '9')
            fail("archive member header at byte " + std::to_string(at) + ": bad size field");
        size = size * 10 + static_cast<std::uint64_t>(c - '0');
        digits = true;
    }
    if (!digits) fail("archive member header at byte " + std::to_string(at) + ": empty size field");
    return size;
}

// Why libelf did not recognise `bytes` as ELF (it says only "not ELF").
std::string identification_problem(std::string_view bytes) {
    if (!bytes.starts_with("\x7f"
                           "ELF")) {
        return bytes.size() < 4 && std::string_view(
                                       "\x7f"
                                       "ELF")
                                       .starts_with(bytes)
                   ? "truncated ELF identification (" + std::to_string(bytes.size()) + " bytes)"
                   : "not an ELF file (no \\x7fELF magic)";
    }
    if (bytes.size() < EI_NIDENT)
        return "truncated ELF identification (" + std::to_string(bytes.size()) + " bytes)";
    const auto elf_class = static_cast<unsigned char>(bytes[EI_CLASS]);
    const auto data = static_cast<unsigned char>(bytes[EI_DATA]);
    if (elf_class != ELFCLASS32 && elf_class != ELFCLASS64)
        return "unsupported ELF class byte " + std::to_string(elf_class);
    if (data != ELFDATA2LSB && data != ELFDATA2MSB)
        return "unsupported ELF data (byte order) byte " + std::to_string(data);
    return "unreadable ELF identification (version byte " +
           std::to_string(static_cast<unsigned char>(bytes[EI_VERSION])) + ")";
}

// libelf reads from a mutable buffer that must outlive every descriptor made from it. In huge
// pages (allocate_huge): a large library's copy otherwise takes a page fault every 4 KiB.
class ElfCopy {
  public:
    explicit ElfCopy(std::string_view bytes)
        : size_(bytes.size()), data_(static_cast<char*>(allocate_huge(size_))) {
        std::memcpy(data_, bytes.data(), size_);
    }
    ~ElfCopy() { free_huge(data_, size_); }
    ElfCopy(const ElfCopy&) = delete;
    ElfCopy& operator=(const ElfCopy&) = delete;
    [[nodiscard]] char* data() const { return data_; }
    [[nodiscard]] std::size_t size() const { return size_; }

  private:
    std::size_t size_;
    char* data_;
};

}  // namespace

bool looks_like_archive(std::string_view bytes) {
    return bytes.starts_with("!<arch>\n") || bytes.starts_with("!<thin>\n");
}

Result<ElfImage> parse_elf(std::string_view bytes) {
    if (bytes.empty()) return make_gap(GapReason::malformed, "empty file");
    try {
        init_libelf();
        const ElfCopy buffer(bytes);
        ElfHandle elf(elf_memory(buffer.data(), buffer.size()));
        if (elf.get() == nullptr) fail("libelf cannot open it: " + libelf_error());
        switch (elf_kind(elf.get())) {
            case ELF_K_ELF:
                return read_image(elf.get(), buffer.size());
            case ELF_K_AR:
                fail("a static archive, not an ELF file");
            default:
                break;
        }
        fail(identification_problem(bytes));
    } catch (const MalformedElf& error) {
        return make_gap(GapReason::malformed, error.what());
    }
}

// A member name from a broken long-name table can hold newlines; messages stay one line (fuzz).
namespace {
std::string printable_name(std::string name) {
    for (char& c : name) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    }
    return name;
}
}  // namespace

Result<std::vector<ArchiveMember>> parse_archive(std::string_view bytes) {
    if (bytes.empty()) return make_gap(GapReason::malformed, "empty file");
    if (bytes.starts_with("!<thin>\n")) {
        return make_gap(GapReason::malformed,
                        "a thin archive: its members are separate files, not read");
    }
    if (!looks_like_archive(bytes))
        return make_gap(GapReason::malformed, "not a static archive (no !<arch> magic)");
    try {
        init_libelf();
        const ElfCopy buffer(bytes);
        ElfHandle archive(elf_memory(buffer.data(), buffer.size()));
        if (archive.get() == nullptr || elf_kind(archive.get()) != ELF_K_AR)
            fail("unreadable archive: " + libelf_error());
        std::vector<ArchiveMember> members;
        // libelf ends the walk with "offset out of range" whether the archive ended or broke,
        // so the walk keeps its own idea of where the next member header must start.
        std::uint64_t next_header = 8;  // after "!<arch>\n"
        Elf_Cmd cmd = ELF_C_READ_MMAP;
        while (cmd != ELF_C_NULL) {
            ElfHandle member(elf_begin(-1, cmd, archive.get()));
            if (member.get() == nullptr) break;
            if (members.size() >= kMaxArchiveMembers) fail("absurd archive member count");
            const Elf_Arhdr* header = elf_getarhdr(member.get());
            const std::int64_t at = elf_getaroff(member.get());
            if (header == nullptr || header->ar_name == nullptr || at < 0)
                fail("unreadable archive member header: " + libelf_error());
            // libelf keeps one header buffer per archive: copy it before elf_next() reuses it.
            const std::string name = header->ar_name;
            // libelf silently clips a member to the bytes present; the header says the truth.
            const std::uint64_t size = declared_member_size(
                std::string_view(buffer.data(), buffer.size()), static_cast<std::uint64_t>(at));
            // The 60-byte `ar` member header, then the data padded to an even size.
            next_header = static_cast<std::uint64_t>(at) + 60 + size + (size % 2);
            if (next_header - (size % 2) > buffer.size()) {
                fail("truncated: member " + printable_name(name) + " needs " +
                     std::to_string(size) + " bytes at byte " +
                     std::to_string(static_cast<std::uint64_t>(at) + 60) + " of " +
                     std::to_string(buffer.size()));
            }
            cmd = elf_next(member.get());
            // "/" is the symbol index, "//" the long-name table, "/SYM64/" the 64-bit index.
            if (name == "/" || name == "//" || name == "/SYM64/") continue;
            ArchiveMember out;
            out.name = name;
            out.offset = static_cast<std::uint64_t>(at) + 60;
            out.size = size;
            if (elf_kind(member.get()) != ELF_K_ELF) {
                const std::string_view data(buffer.data() + out.offset, size);
                out.gap = make_gap(GapReason::malformed,
                                   is_llvm_bitcode(data)
                                       ? std::string("not an ELF object: ") + kLlvmBitcode
                                       : std::string("not an ELF object"));
            } else {
                try {
                    out.image = read_image(member.get(), size);
                } catch (const MalformedElf& error) {
                    out.gap = make_gap(GapReason::malformed, error.what());
                }
            }
            members.push_back(std::move(out));
        }
        if (next_header + 1 < buffer.size()) {  // one byte of padding may remain
            fail("archive unreadable at byte " + std::to_string(next_header) + ": " +
                 libelf_error());
        }
        return members;
    } catch (const MalformedElf& error) {
        return make_gap(GapReason::malformed, error.what());
    }
}

}  // namespace rdmi
