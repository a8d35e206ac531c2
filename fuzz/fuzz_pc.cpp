// libFuzzer target: the `.pc` handling path (text checks, then libpkgconf on the bytes).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pkgconfig/pc_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    rdmi::pkgconfig::ParseOptions options;
    // The low bit of the size alternates the sysroot handling, so both paths are exercised.
    if ((size & 1U) != 0) options.sysroot = "/sysroot";
    auto module = rdmi::pkgconfig::parse_pc(bytes, "/usr/lib/pkgconfig/fuzz.pc", options);
    if (!module && module.gap().message.find('\n') != std::string_view::npos) __builtin_trap();
    return 0;
}
