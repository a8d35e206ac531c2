// libFuzzer target: the header annotation scanner.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "doca_headers/header_scanner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const rdmi::HeaderScan scan = rdmi::scan_header(text, "fuzz.h");
    // Every declaration the scanner reports must name something and sit on a real line.
    for (const auto& decl : scan.decls) {
        if (decl.name.empty() || decl.line == 0) __builtin_trap();
    }
    return 0;
}
