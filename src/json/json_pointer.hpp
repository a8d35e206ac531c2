// RFC 6901 JSON pointers: parsed, and resolved in a document with an answer that says where the
// path stopped when the value is not there.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace rdmi {

/// The pointer's reference tokens, unescaped ("~1" is "/", "~0" is "~"); "" is the whole
/// document. A Gap (malformed) when the text is not a pointer: it does not start with "/", or a
/// "~" is not followed by 0 or 1.
Result<std::vector<std::string>> parse_json_pointer(std::string_view pointer);

/// The value `pointer` names in `document`. When there is none, a Gap (not_found) whose message
/// names the longest prefix of the pointer that exists and what it holds: an object's members, an
/// array's index range, or a scalar's type.
Result<const nlohmann::ordered_json*> resolve_json_pointer(const nlohmann::ordered_json& document,
                                                           std::string_view pointer);

}  // namespace rdmi
