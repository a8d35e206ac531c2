// Wire JSON: the decoders read fields with nlohmann's get<T>(), which throws on a wrong type
// (caught at each decoder's boundary) but converts a double to an integer with a plain cast.
#include "context/wire_json.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "json/json_input.hpp"

namespace rdmi {
namespace {

/// True when every floating-point number in `doc` converts to any integer type the decoders
/// use (int, uint32, uint64, size_t) with a defined result. Iterative: depth is capped anyway.
bool floats_convertible(const nlohmann::json& doc) {
    std::vector<const nlohmann::json*> pending{&doc};
    while (!pending.empty()) {
        const nlohmann::json* node = pending.back();
        pending.pop_back();
        if (node->is_number_float()) {
            const double value = node->get<double>();
            if (!std::isfinite(value) || value < 0.0 || value >= 2147483648.0) return false;
        } else if (node->is_structured()) {
            for (const auto& child : *node) pending.push_back(&child);
        }
    }
    return true;
}

}  // namespace

Result<nlohmann::json> parse_wire_json(std::string_view text, std::string_view name) {
    auto parsed = parse_json_input(text, name, json_input::kChildAnswer);
    if (!parsed) return parsed.gap();
    if (!floats_convertible(*parsed)) {
        return make_gap(GapReason::malformed,
                        std::string(name) + ": a number out of range for the answer's fields");
    }
    return parsed;
}

nlohmann::json gap_to_wire(const std::optional<Gap>& gap) {
    if (!gap) return nullptr;
    return {{"reason", static_cast<int>(gap->reason)}, {"message", gap->message}};
}

std::optional<Gap> gap_from_wire(const nlohmann::json& j) {
    if (j.is_null()) return std::nullopt;
    const int reason = j.at("reason").get<int>();
    if (reason < 0 || reason > static_cast<int>(GapReason::error))
        throw std::runtime_error("bad gap reason");
    return Gap{static_cast<GapReason>(reason), j.at("message").get<std::string>()};
}

Gap wire_gap(std::string_view what, std::string_view detail) {
    std::string message(what);
    message += ": ";
    for (const char c : detail) message += c == '\n' || c == '\r' ? ' ' : c;
    return Gap{GapReason::malformed, std::move(message)};
}

}  // namespace rdmi
