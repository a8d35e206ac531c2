// A minimal reading of the section header table (the System V gABI's Elf32_Shdr and
// Elf64_Shdr): only what tells text from code and names. Every offset is checked against the
// file's size before it is read; a table that does not fit makes the file "not readable".
#include "bundle/elf_regions.hpp"

#include <algorithm>
#include <cstdint>

namespace rdmi::bundle {
namespace {

constexpr std::uint32_t kShtProgbits = 1;
constexpr std::uint32_t kShtStrtab = 3;
constexpr std::uint32_t kShtNobits = 8;
constexpr std::uint64_t kShfExecinstr = 0x4;

// Sections whose bytes are tables the loader or the symbol audit read as binary records
// (symbols, relocations, hashes, the dynamic section, versions, arrays of addresses): never
// rewritten. Any other section that is not code or a string table (SHT_PROGBITS data,
// SHT_NOTE, a type of its own) may carry text, and is redacted like data.
bool is_table(std::uint32_t type) {
    switch (type) {
        case 2:           // SHT_SYMTAB
        case 4:           // SHT_RELA
        case 5:           // SHT_HASH
        case 6:           // SHT_DYNAMIC
        case 9:           // SHT_REL
        case 11:          // SHT_DYNSYM
        case 14:          // SHT_INIT_ARRAY
        case 15:          // SHT_FINI_ARRAY
        case 16:          // SHT_PREINIT_ARRAY
        case 17:          // SHT_GROUP
        case 18:          // SHT_SYMTAB_SHNDX
        case 19:          // SHT_RELR
        case 0x6ffffff6:  // SHT_GNU_HASH
        case 0x6ffffffd:  // SHT_GNU_verdef
        case 0x6ffffffe:  // SHT_GNU_verneed
        case 0x6fffffff:  // SHT_GNU_versym
            return true;
        default:
            return false;
    }
}

class Reader {
  public:
    Reader(std::string_view bytes, bool big_endian) : bytes_(bytes), big_(big_endian) {}

    [[nodiscard]] bool fits(std::uint64_t offset, std::uint64_t size) const {
        return offset <= bytes_.size() && size <= bytes_.size() - offset;
    }

    // An unsigned field of `size` bytes at `offset`; the caller has checked fits().
    [[nodiscard]] std::uint64_t field(std::uint64_t offset, unsigned size) const {
        std::uint64_t value = 0;
        for (unsigned i = 0; i < size; ++i) {
            const auto byte =
                static_cast<unsigned char>(bytes_[offset + (big_ ? i : size - 1 - i)]);
            value = (value << 8U) | byte;
        }
        return value;
    }

  private:
    std::string_view bytes_;
    bool big_;
};

}  // namespace

bool is_elf(std::string_view bytes) {
    return bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view(
                                                          "\x7f"
                                                          "ELF",
                                                          4);
}

std::optional<ElfRegions> elf_regions(std::string_view bytes) {
    if (!is_elf(bytes) || bytes.size() < 52) return std::nullopt;
    const auto elf_class = static_cast<unsigned char>(bytes[4]);
    const auto data = static_cast<unsigned char>(bytes[5]);
    if ((elf_class != 1 && elf_class != 2) || (data != 1 && data != 2)) return std::nullopt;
    const bool wide = elf_class == 2;
    const Reader r(bytes, data == 2);
    if (wide && bytes.size() < 64) return std::nullopt;
    const std::uint64_t shoff = wide ? r.field(0x28, 8) : r.field(0x20, 4);
    const std::uint64_t shentsize = r.field(wide ? 0x3a : 0x2e, 2);
    std::uint64_t shnum = r.field(wide ? 0x3c : 0x30, 2);
    const std::uint64_t min_entry = wide ? 64 : 40;
    if (shoff == 0 || shentsize < min_entry || !r.fits(shoff, shentsize)) return std::nullopt;
    // More than 0xff00 sections: the count is section 0's sh_size.
    if (shnum == 0) shnum = wide ? r.field(shoff + 0x20, 8) : r.field(shoff + 0x14, 4);
    if (shnum == 0 || shnum > (bytes.size() - shoff) / shentsize) return std::nullopt;
    ElfRegions out;
    // What the file's structure covers: its header, its program and section header tables and
    // every section's bytes. The rest is read by nothing that reads an ELF file by its
    // structure, and is redacted like data (a trailer appended to a library, a crafted file).
    std::vector<ByteRange> covered;
    auto cover = [&](std::uint64_t offset, std::uint64_t size) {
        if (size == 0 || offset >= bytes.size()) return;
        const std::uint64_t end = r.fits(offset, size) ? offset + size : bytes.size();
        covered.push_back({static_cast<std::size_t>(offset), static_cast<std::size_t>(end)});
    };
    cover(0, r.field(wide ? 0x34 : 0x28, 2));
    const std::uint64_t phoff = wide ? r.field(0x20, 8) : r.field(0x1c, 4);
    const std::uint64_t phentsize = r.field(wide ? 0x36 : 0x2a, 2);
    const std::uint64_t phnum = r.field(wide ? 0x38 : 0x2c, 2);
    if (phoff != 0) cover(phoff, phentsize * phnum);
    cover(shoff, shentsize * shnum);
    for (std::uint64_t i = 0; i < shnum; ++i) {
        const std::uint64_t h = shoff + i * shentsize;
        const auto type = static_cast<std::uint32_t>(r.field(h + 4, 4));
        const std::uint64_t flags = wide ? r.field(h + 8, 8) : r.field(h + 8, 4);
        const std::uint64_t offset = wide ? r.field(h + 0x18, 8) : r.field(h + 0x10, 4);
        const std::uint64_t size = wide ? r.field(h + 0x20, 8) : r.field(h + 0x14, 4);
        if (size == 0 || !r.fits(offset, size)) continue;
        if (type != kShtNobits) cover(offset, size);
        const ByteRange range{static_cast<std::size_t>(offset),
                              static_cast<std::size_t>(offset + size)};
        if (type == kShtStrtab) {
            out.names.push_back(range);
        } else if (type != kShtNobits && !is_table(type) &&
                   !(type == kShtProgbits && (flags & kShfExecinstr) != 0)) {
            out.data.push_back(range);
        }
    }
    std::sort(covered.begin(), covered.end(),
              [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
    std::size_t at = 0;
    for (const auto& c : covered) {
        if (c.begin > at) out.data.push_back({at, c.begin});
        at = std::max(at, c.end);
    }
    if (at < bytes.size()) out.data.push_back({at, bytes.size()});
    return out;
}

}  // namespace rdmi::bundle
