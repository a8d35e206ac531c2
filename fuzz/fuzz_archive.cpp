// libFuzzer target: the ELF adapter on a static archive (`ar`) and its members.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "elf/elf_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    (void)rdmi::looks_like_archive(bytes);
    auto members = rdmi::parse_archive(bytes);
    if (!members && members.gap().message.find('\n') != std::string_view::npos) __builtin_trap();
    return 0;
}
