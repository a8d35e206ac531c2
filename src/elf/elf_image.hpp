// The ELF facts rdmi-probe reads from a file: identity, dependencies, symbol versions, symbols.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gap.hpp"
#include "elf/text_arena.hpp"

namespace rdmi {

/// The ELF file type (e_type).
enum class ElfKind { relocatable, executable, shared_object, core, other };

/// Byte order of the file (EI_DATA).
enum class ElfEndian { little, big };

/// Symbol type (STT_*); `other` keeps unknown values visible through `ElfSymbol::raw_type`.
enum class SymbolType { notype, object, func, section, file, common, tls, ifunc, other };

/// Symbol binding (STB_*).
enum class SymbolBinding { local, global, weak, unique, other };

/// Symbol visibility (STV_*).
enum class SymbolVisibility { default_, internal, hidden, protected_ };

/// The stable names ("shared-object", "little", "func", "global", "default", ...).
std::string_view to_string(ElfKind kind);
std::string_view to_string(ElfEndian endian);
std::string_view to_string(SymbolType type);
std::string_view to_string(SymbolBinding binding);
std::string_view to_string(SymbolVisibility visibility);

/// One symbol from `.dynsym` or `.symtab`. Its texts view the `strings` of the ElfImage that
/// holds it (or string literals): keep the image (or a copy of it) for as long as the symbol.
struct ElfSymbol {
    std::string_view name;
    SymbolType type = SymbolType::notype;
    SymbolBinding binding = SymbolBinding::local;
    SymbolVisibility visibility = SymbolVisibility::default_;
    unsigned raw_type = 0;  ///< STT_* value as read (for `SymbolType::other`)
    std::uint64_t value = 0;
    std::uint64_t size = 0;
    bool defined = false;  ///< st_shndx != SHN_UNDEF
    /// Section the symbol lives in (".text", ".text.experimental"); "*ABS*" or "*COM*" for the
    /// special indexes; empty when undefined.
    std::string_view section;
    /// Symbol version name from `.gnu.version` joined to verdef/verneed; empty when the symbol
    /// is unversioned (index 0 or 1) or the file has no `.gnu.version`.
    std::string_view version;
    /// True for a non-default version: `name@VER` rather than `name@@VER` (VERSYM_HIDDEN, or any
    /// version of an undefined symbol, which is a requirement rather than a definition).
    bool version_hidden = false;
    /// For a versioned undefined symbol: the file whose `.gnu.version_r` entry names the
    /// version ("libc.so.6").
    std::string_view version_file;

    /// "name@@VER", "name@VER" or "name", as readelf prints it.
    [[nodiscard]] std::string display_name() const;
};

/// One entry of `.gnu.version_d`.
struct VersionDef {
    std::uint16_t index = 0;  ///< the value `.gnu.version` uses for it
    std::string name;         ///< "EXPERIMENTAL", "DOCA_3.3", or the soname for the base entry
    bool is_base = false;     ///< VER_FLG_BASE: the file's own name, not a real version node
    bool is_weak = false;     ///< VER_FLG_WEAK
    std::vector<std::string> parents;  ///< the verdaux entries after the first (inheritance)
};

/// One version required from one file (a vernaux entry of `.gnu.version_r`).
struct VersionNeedEntry {
    std::uint16_t index = 0;  ///< vna_other: the value `.gnu.version` uses for it
    std::string name;         ///< "GLIBC_2.34", "EXPERIMENTAL"
    bool is_weak = false;     ///< VER_FLG_WEAK
};

/// The versions one needed file must provide (a verneed entry of `.gnu.version_r`).
struct VersionNeed {
    std::string file;  ///< "libc.so.6", "libdoca_rdmi.so.3"
    std::vector<VersionNeedEntry> versions;
};

/// Where one section's contents lie in the file (for a member of an archive: in the member).
struct SectionExtent {
    std::uint32_t type = 0;    ///< sh_type (SHT_PROGBITS = 1, SHT_NOBITS = 8, ...)
    std::uint64_t flags = 0;   ///< sh_flags (SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR, ...)
    std::uint64_t offset = 0;  ///< sh_offset; checked against the file's size
    std::uint64_t size = 0;    ///< sh_size; 0 for SHT_NOBITS, which occupy no file bytes
};

/// Everything parse_elf() reads from one ELF file.
struct ElfImage {
    ElfKind kind = ElfKind::other;
    unsigned elf_class = 0;  ///< 32 or 64
    ElfEndian endian = ElfEndian::little;
    std::uint16_t machine = 0;               ///< e_machine (EM_X86_64 = 62, EM_AARCH64 = 183, ...)
    std::string soname;                      ///< DT_SONAME; empty when absent
    std::vector<std::string> needed;         ///< DT_NEEDED, in file order
    std::vector<std::string> section_names;  ///< in section-header order
    std::vector<SectionExtent> sections;     ///< parallel to section_names
    std::vector<VersionDef> version_defs;    ///< `.gnu.version_d`, in file order
    std::vector<VersionNeed> version_needs;  ///< `.gnu.version_r`, in file order
    std::vector<ElfSymbol> dynamic_symbols;  ///< `.dynsym` without the null entry 0
    /// `.symtab` without entry 0, read only for relocatable files (`.o` and archive members);
    /// defined and undefined symbols, locals included.
    std::vector<ElfSymbol> static_symbols;
    /// What the symbols' texts view; copies of the image share it.
    std::shared_ptr<const TextArena> strings;

    /// The machine's conventional name ("x86_64", "aarch64", "i386", or "EM_<n>").
    [[nodiscard]] std::string machine_name() const;
    /// What the loader matches a file by: "x86_64, ELF64, little-endian".
    [[nodiscard]] std::string platform_name() const;
    /// True when both have the same machine, class and byte order: the loader maps one into the
    /// other's process only then.
    [[nodiscard]] bool same_platform(const ElfImage& other) const;
    /// True when `.gnu.version_d` names `name` (base entry excluded).
    [[nodiscard]] bool defines_version(std::string_view name) const;
};

/// One member of a static archive: its name and its parsed image, or why it could not be read.
struct ArchiveMember {
    std::string name;               ///< "doca_rdmi_connection.o"
    std::uint64_t offset = 0;       ///< where the member's bytes start in the archive
    std::uint64_t size = 0;         ///< how many bytes it has there
    std::optional<ElfImage> image;  ///< absent when the member is not a readable ELF object
    std::optional<Gap> gap;         ///< why `image` is absent
};

}  // namespace rdmi
