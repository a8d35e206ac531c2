// Bounded JSON input. nlohmann's parser keeps its own stack (it does not recurse), but the
// code that walks a parsed document does, so depth is capped before parsing.
#include "contract/json_input.hpp"

#include "core/json_input.hpp"
#include "core/json_strict.hpp"

namespace rdmi::contract {

Result<Json> parse_document(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return make_gap(GapReason::malformed, "empty file (no JSON document)");
    if (json_too_deep_at(text, kMaxDocumentDepth) != std::string_view::npos) {
        return make_gap(GapReason::malformed, "JSON nested deeper than " +
                                                  std::to_string(kMaxDocumentDepth) +
                                                  " levels (not a document rdmi-probe writes)");
    }
    try {
        return parse_json_strict<Json>(text);
    } catch (const JsonInputError& e) {
        return make_gap(GapReason::malformed, e.message());
    } catch (const Json::parse_error& e) {
        return make_gap(GapReason::malformed, std::string("invalid JSON: ") + e.what());
    }
}

Result<Json> read_document(const Fs& fs, std::string_view path) {
    auto text = fs.read_file(path, kMaxDocumentBytes);
    if (!text) return text.gap();
    auto parsed = parse_document(*text);
    if (!parsed) return Gap{parsed.gap().reason, std::string(path) + ": " + parsed.gap().message};
    return parsed;
}

}  // namespace rdmi::contract
