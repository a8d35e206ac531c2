// --field: a document's values by JSON pointer, as a shell variable wants them.
#include "cli/field_output.hpp"

#include <nlohmann/json.hpp>

#include "json/json_pointer.hpp"

namespace rdmi::cli {
namespace {

// C0 controls, DEL and the C1 controls (U+0080 to U+009F, UTF-8 C2 80 to C2 9F): a raw value
// holding one could end the line early or drive the terminal it is printed on.
bool has_control(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) return true;
        if (c == 0xc2 && i + 1 < text.size()) {
            const auto next = static_cast<unsigned char>(text[i + 1]);
            if (next >= 0x80 && next <= 0x9f) return true;
        }
    }
    return false;
}

std::string one_line(const nlohmann::ordered_json& value) {
    if (value.is_string() && !has_control(value.get_ref<const std::string&>()))
        return value.get<std::string>();
    // ensure_ascii: a C1 control is written as \u0085, not as itself.
    return value.dump(-1, ' ', true, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

Result<bool> check_field_pointer(std::string_view pointer) {
    auto parsed = parse_json_pointer(pointer);
    if (!parsed) return parsed.gap();
    return true;
}

Result<std::string> field_values(std::string_view document, std::span<const std::string> pointers) {
    // The document is this run's own output: well-formed, and bounded by what produced it.
    const auto parsed = nlohmann::ordered_json::parse(document, nullptr, false);
    if (parsed.is_discarded())
        return make_gap(GapReason::error, "--field: the document is not JSON");
    std::string out;
    for (const auto& pointer : pointers) {
        auto value = resolve_json_pointer(parsed, pointer);
        if (!value)
            return Gap{value.gap().reason, "--field " + pointer + ": " + value.gap().message};
        out += one_line(**value);
        out += '\n';
    }
    return out;
}

}  // namespace rdmi::cli
