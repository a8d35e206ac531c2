// libFuzzer target: the ELF adapter on one shared object or object file, and the loader's
// reading of its dynamic section (both through libelf).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "elf/elf_reader.hpp"
#include "loader/elf_dynamic.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto image = rdmi::parse_elf(bytes);
    if (!image && image.gap().message.find('\n') != std::string_view::npos) __builtin_trap();
    auto dynamic = rdmi::read_dynamic_info(bytes);
    if (!dynamic && dynamic.gap().message.find('\n') != std::string_view::npos) __builtin_trap();
    return 0;
}
