// The dynamic-linking facts of an ELF file as the loader reads them: through the program headers
// (PT_DYNAMIC, PT_LOAD), not the section headers, which ld.so never consults.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace rdmi {

/// What ld.so takes from an object's PT_DYNAMIC to find its dependencies.
struct DynamicInfo {
    unsigned elf_class = 0;           ///< 32 or 64
    std::uint16_t machine = 0;        ///< e_machine
    std::string soname;               ///< DT_SONAME; empty when absent
    std::vector<std::string> needed;  ///< DT_NEEDED, in file order
    /// DT_AUXILIARY and DT_FILTER, in file order: ld.so maps these filtees as it maps DT_NEEDED.
    std::vector<std::string> filtees;
    std::string rpath;         ///< DT_RPATH, unexpanded; empty when absent
    std::string runpath;       ///< DT_RUNPATH, unexpanded; empty when absent
    bool has_runpath = false;  ///< a DT_RUNPATH exists (it disables DT_RPATH)
    bool has_dynamic = false;  ///< there is a PT_DYNAMIC at all
    bool bind_now = false;     ///< DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW: symbols bound at load
    /// PT_INTERP up to its first NUL: the program interpreter the kernel maps when the file is
    /// executed (ignored when it is dlopen'ed); empty when absent.
    std::string interpreter;
};

/// Reads the dynamic section of an ELF file in the host's byte order (the only files this
/// process could load), through libelf. Never does I/O. A truncated or inconsistent file is a
/// Gap (malformed), in one line: whatever cannot be read is never taken as "no dependencies".
/// `image` may be read-only memory (a PROT_READ mapping): libelf's elf_memory takes a mutable
/// pointer because it may convert a file of the other byte order in place, and such a file is
/// refused before libelf sees it; for the host's byte order elf_memory, gelf_getphdr and
/// elf_getdata_rawchunk read in place or copy into libelf's own heap, and write nothing
/// (tests/unit/loader/elf_dynamic_test.cpp reads a PROT_READ mapping).
Result<DynamicInfo> read_dynamic_info(std::string_view image);

}  // namespace rdmi
