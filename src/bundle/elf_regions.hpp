// ELF regions for redaction: which bytes of a shared object hold text that may be rewritten in
// place, and which hold the names the loader and the symbol audit read.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace rdmi::bundle {

/// Bytes [begin, end) of a file.
struct ByteRange {
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// An ELF file's sections as redaction sees them.
struct ElfRegions {
    /// Data sections that are not code (SHT_PROGBITS without SHF_EXECINSTR: .rodata, .data,
    /// .comment, .debug_str; SHT_NOTE; any section type that is not a binary table the loader
    /// or the symbol audit reads), and the bytes no section, header or header table covers (what
    /// was appended after the last section, gaps between sections): text found there is
    /// rewritten in place, at the same length.
    std::vector<ByteRange> data;
    /// String tables (SHT_STRTAB: .dynstr, .strtab, .shstrtab): symbol, version, section and
    /// library names and RUNPATH; never rewritten, since a changed name is another library.
    std::vector<ByteRange> names;
};

/// True when `bytes` starts with the ELF magic.
bool is_elf(std::string_view bytes);

/// The regions of an ELF file (32 or 64 bits, either byte order), or nullopt when its section
/// header table cannot be read within `bytes`. Sections lying outside the file are left out.
std::optional<ElfRegions> elf_regions(std::string_view bytes);

}  // namespace rdmi::bundle
