// libFuzzer target: bounded JSON input parsing (diff inputs, policy files, tool output).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/json_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto parsed = rdmi::parse_json_input(bytes, "fuzz.json");
    if (!parsed) {
        const std::string& message = parsed.gap().message;
        if (message.find('\n') != std::string::npos || message.rfind("fuzz.json: ", 0) != 0)
            __builtin_trap();
        return 0;
    }
    // Whatever was accepted must serialise back (the report writer does the same).
    (void)parsed.value().dump();
    return 0;
}
