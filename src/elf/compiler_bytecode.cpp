// Recognises the objects of LTO builds that carry no machine code an ELF reader could audit.
#include "elf/compiler_bytecode.hpp"

#include <elf.h>

#include <algorithm>

namespace rdmi {
namespace {

// GCC's markers in an LTO object's symbol table: `__gnu_lto_slim` (slim objects, GCC 5 on) and
// `__gnu_lto_v1` (every LTO object before GCC 10). Neither is code the program calls.
bool gcc_lto_marker(std::string_view name) {
    return name == "__gnu_lto_slim" || name == "__gnu_lto_v1";
}

}  // namespace

bool is_llvm_bitcode(std::string_view bytes) {
    return bytes.starts_with("BC\xC0\xDE") || bytes.starts_with("\xDE\xC0\x17\x0B");
}

std::optional<std::string> gcc_lto_bytecode(const ElfImage& image) {
    if (image.kind != ElfKind::relocatable) return std::nullopt;
    bool slim_marker = false;
    bool real_symbol = false;
    for (const auto& symbol : image.static_symbols) {
        if (symbol.name == "__gnu_lto_slim") slim_marker = true;
        if (symbol.binding != SymbolBinding::local && !symbol.name.empty() &&
            !gcc_lto_marker(symbol.name))
            real_symbol = true;
    }
    // GCC's word that the object carries no code, whatever its sections are called now.
    if (slim_marker) return std::string(kGccLtoBytecode);
    const bool has_bytecode =
        std::any_of(image.section_names.begin(), image.section_names.end(),
                    [](const std::string& name) { return name.starts_with(".gnu.lto_"); });
    if (!has_bytecode) return std::nullopt;
    // A fat object's code and data are in its allocated sections; with bytecode and none of
    // them, its symbols name nothing the bytecode does (the linker plugin takes the bytecode).
    const bool allocated_contents = std::any_of(
        image.sections.begin(), image.sections.end(),
        [](const SectionExtent& s) { return (s.flags & SHF_ALLOC) != 0 && s.size > 0; });
    // Without the marker but with real symbols of real contents, the code beside the bytecode
    // is the object's own (a fat object): read as usual.
    if (!real_symbol || !allocated_contents) return std::string(kGccLtoBytecode);
    return std::nullopt;
}

}  // namespace rdmi
