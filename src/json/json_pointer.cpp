// RFC 6901 parsing and resolution, with the longest existing prefix for an absent value.
#include "json/json_pointer.hpp"

#include <algorithm>
#include <cctype>

#include "json/json_strict.hpp"

namespace rdmi {
namespace {

// An object's members named in a message: enough to spot a typo, never a whole document.
constexpr std::size_t kMembersShown = 40;

// RFC 6901 section 4: an array index is "0" or digits without a leading zero.
bool is_array_index(std::string_view token) {
    if (token.empty() || token.size() > 18) return false;
    if (token.size() > 1 && token.front() == '0') return false;
    return std::all_of(token.begin(), token.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string shown_prefix(const std::string& prefix) {
    return prefix.empty() ? std::string("\"\" (the whole document)") : prefix;
}

std::string what_is_there(const nlohmann::ordered_json& value) {
    if (value.is_object()) {
        if (value.empty()) return "an empty object";
        std::string members = "an object whose members are ";
        std::size_t count = 0;
        for (const auto& item : value.items()) {
            if (count == kMembersShown) {
                members += ", ... (" + std::to_string(value.size() - kMembersShown) + " more)";
                break;
            }
            if (count++ > 0) members += ", ";
            members += json_pointer_token(item.key());
        }
        return members;
    }
    if (value.is_array()) {
        if (value.empty()) return "an empty array";
        return "an array of " + std::to_string(value.size()) + " (indexes 0 to " +
               std::to_string(value.size() - 1) + ")";
    }
    return std::string("a ") + value.type_name() + ", which has no members";
}

}  // namespace

Result<std::vector<std::string>> parse_json_pointer(std::string_view pointer) {
    std::vector<std::string> tokens;
    if (pointer.empty()) return tokens;
    if (pointer.front() != '/')
        return make_gap(GapReason::malformed, "a JSON pointer is \"\" or starts with \"/\"");
    std::size_t at = 1;
    while (true) {
        const std::size_t end = std::min(pointer.find('/', at), pointer.size());
        std::string token;
        for (std::size_t i = at; i < end; ++i) {
            if (pointer[i] != '~') {
                token += pointer[i];
                continue;
            }
            if (i + 1 >= end || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) {
                return make_gap(GapReason::malformed,
                                "\"~\" in a JSON pointer is \"~0\" (for ~) or \"~1\" (for /)");
            }
            token += pointer[++i] == '0' ? '~' : '/';
        }
        tokens.push_back(std::move(token));
        if (end == pointer.size()) break;
        at = end + 1;
    }
    return tokens;
}

Result<const nlohmann::ordered_json*> resolve_json_pointer(const nlohmann::ordered_json& document,
                                                           std::string_view pointer) {
    auto tokens = parse_json_pointer(pointer);
    if (!tokens) return tokens.gap();
    const nlohmann::ordered_json* at = &document;
    std::string prefix;
    for (const auto& token : *tokens) {
        const nlohmann::ordered_json* next = nullptr;
        if (at->is_object()) {
            auto found = at->find(token);
            if (found != at->end()) next = &*found;
        } else if (at->is_array() && is_array_index(token)) {
            const auto index = std::stoull(token);
            if (index < at->size()) next = &(*at)[index];
        }
        if (next == nullptr) {
            return make_gap(GapReason::not_found,
                            "no value there; the longest prefix that exists is " +
                                shown_prefix(prefix) + ", " + what_is_there(*at));
        }
        prefix += "/" + json_pointer_token(token);
        at = next;
    }
    return at;
}

}  // namespace rdmi
