// Objects that hold their code only as a compiler's link-time bytecode: GCC's slim LTO objects
// and LLVM bitcode. No ELF reader learns from them what the linked program will call.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "elf/elf_image.hpp"

namespace rdmi {

/// Why a GCC slim LTO object cannot be audited, and what to give instead.
inline constexpr const char* kGccLtoBytecode =
    "GCC LTO bytecode: not readable; build with -ffat-lto-objects or pass the linked binary";
/// Why an LLVM bitcode file cannot be audited, and what to give instead.
inline constexpr const char* kLlvmBitcode =
    "LLVM bitcode: not readable; build with -ffat-lto-objects or pass the linked binary";

/// True when `bytes` start with LLVM bitcode's magic ("BC\xC0\xDE") or the bitcode wrapper's
/// (0x0B17C0DE, little-endian), as `clang -flto -c` writes them.
bool is_llvm_bitcode(std::string_view bytes);

/// kGccLtoBytecode when `image` is a relocatable object whose only code is GCC's LTO bytecode:
/// it carries the `__gnu_lto_slim` marker (whatever its sections are called), or it has
/// `.gnu.lto_*` sections and either no global symbol besides GCC's markers or no allocated
/// section with contents. nullopt for anything else, a fat LTO object (-ffat-lto-objects)
/// among them: its symbol table is that of real code, which reads like any object's.
std::optional<std::string> gcc_lto_bytecode(const ElfImage& image);

}  // namespace rdmi
