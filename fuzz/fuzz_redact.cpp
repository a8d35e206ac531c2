// libFuzzer target: redaction (the identity scanner and its placeholders). Traps when a value
// the rules detect survives in the output, when a binary input changes length, and when a JSON
// document stops being one (the bundle's documents are redacted as text).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bundle/elf_regions.hpp"
#include "bundle/redact.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    rdmi::bundle::Redactor redactor({"node7.lab.example.com", "doca"});
    if (rdmi::bundle::is_binary(bytes)) {
        auto redacted = redactor.binary(bytes);
        if (!redacted) return 0;  // left out of the bundle: nothing of it is stored
        if (redacted->size() != bytes.size()) __builtin_trap();
        // An ELF file's code and tables are not text and are not looked at; the whole of any
        // other binary is.
        if (!rdmi::bundle::is_elf(bytes) &&
            redactor.holds_identity(*redacted, rdmi::bundle::ScanMode{true, false}))
            __builtin_trap();
        return 0;
    }
    const std::string text = redactor.text(bytes, "/fuzz");
    if (redactor.holds_identity(text, rdmi::bundle::ScanMode{})) __builtin_trap();
    if (nlohmann::json::accept(bytes) && !nlohmann::json::accept(text)) __builtin_trap();
    const std::string root = redactor.metadata(bytes);
    if (redactor.holds_identity(root, rdmi::bundle::ScanMode{false, true})) __builtin_trap();
    return 0;
}
