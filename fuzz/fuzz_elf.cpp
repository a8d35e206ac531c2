// libFuzzer target: the ELF adapter on one shared object or object file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "elf/elf_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto image = rdmi::parse_elf(bytes);
    if (!image && image.gap().message.find('\n') != std::string_view::npos) __builtin_trap();
    return 0;
}
