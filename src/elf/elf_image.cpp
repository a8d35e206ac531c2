// Names of the ELF model's enums and small helpers on the image.
#include "elf/elf_image.hpp"

#include <elf.h>

namespace rdmi {

std::string_view to_string(ElfKind kind) {
    switch (kind) {
        case ElfKind::relocatable:
            return "relocatable";
        case ElfKind::executable:
            return "executable";
        case ElfKind::shared_object:
            return "shared-object";
        case ElfKind::core:
            return "core";
        case ElfKind::other:
            break;
    }
    return "other";
}

std::string_view to_string(ElfEndian endian) {
    return endian == ElfEndian::little ? "little" : "big";
}

std::string_view to_string(SymbolType type) {
    switch (type) {
        case SymbolType::notype:
            return "notype";
        case SymbolType::object:
            return "object";
        case SymbolType::func:
            return "func";
        case SymbolType::section:
            return "section";
        case SymbolType::file:
            return "file";
        case SymbolType::common:
            return "common";
        case SymbolType::tls:
            return "tls";
        case SymbolType::ifunc:
            return "ifunc";
        case SymbolType::other:
            break;
    }
    return "other";
}

std::string_view to_string(SymbolBinding binding) {
    switch (binding) {
        case SymbolBinding::local:
            return "local";
        case SymbolBinding::global:
            return "global";
        case SymbolBinding::weak:
            return "weak";
        case SymbolBinding::unique:
            return "unique";
        case SymbolBinding::other:
            break;
    }
    return "other";
}

std::string_view to_string(SymbolVisibility visibility) {
    switch (visibility) {
        case SymbolVisibility::default_:
            return "default";
        case SymbolVisibility::internal:
            return "internal";
        case SymbolVisibility::hidden:
            return "hidden";
        case SymbolVisibility::protected_:
            return "protected";
    }
    return "default";
}

std::string ElfSymbol::display_name() const {
    if (version.empty()) return std::string(name);
    return std::string(name) + (version_hidden ? "@" : "@@") + std::string(version);
}

std::string ElfImage::machine_name() const {
    switch (machine) {
        case EM_X86_64:
            return "x86_64";
        case EM_AARCH64:
            return "aarch64";
        case EM_386:
            return "i386";
        case EM_ARM:
            return "arm";
        case EM_PPC64:
            return "ppc64";
        case EM_RISCV:
            return "riscv";
        case EM_S390:
            return "s390";
        default:
            break;
    }
    return "EM_" + std::to_string(machine);
}

std::string ElfImage::platform_name() const {
    return machine_name() + ", ELF" + std::to_string(elf_class) + ", " +
           std::string(to_string(endian)) + "-endian";
}

bool ElfImage::same_platform(const ElfImage& other) const {
    return machine == other.machine && elf_class == other.elf_class && endian == other.endian;
}

bool ElfImage::defines_version(std::string_view name) const {
    for (const auto& def : version_defs) {
        if (!def.is_base && def.name == name) return true;
    }
    return false;
}

}  // namespace rdmi
