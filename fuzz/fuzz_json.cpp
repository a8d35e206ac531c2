// libFuzzer target: bounded JSON input parsing (diff inputs, policy files, tool output), in
// both the tree types it builds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "json/json_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto parsed = rdmi::parse_json_input(bytes, "fuzz.json", rdmi::json_input::kSavedDocument);
    if (!parsed) {
        const std::string& message = parsed.gap().message;
        if (message.find('\n') != std::string::npos || message.rfind("fuzz.json: ", 0) != 0)
            __builtin_trap();
        return 0;
    }
    // Whatever was accepted must serialise back (the report writer does the same), and the
    // ordered tree `diff` builds from the same bytes must agree with it.
    const std::string dumped = parsed.value().dump();
    auto ordered = rdmi::parse_json_input<nlohmann::ordered_json>(bytes, "fuzz.json",
                                                                  rdmi::json_input::kSavedDocument);
    if (!ordered || nlohmann::json::parse(ordered.value().dump()).dump() != dumped)
        __builtin_trap();
    return 0;
}
