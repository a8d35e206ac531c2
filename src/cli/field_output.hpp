// --field POINTER: the values a JSON document holds at the pointers given, one a line.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi::cli {

/// The values `pointers` (RFC 6901) name in the JSON `document`, in order, one a line: a string
/// as it is, unless it holds a control character (then as a JSON string, so that one value stays
/// one line and nothing reaches a terminal as a control); any other value as one line of JSON.
/// A Gap when a pointer names nothing: "--field POINTER: " and where the path stopped.
Result<std::string> field_values(std::string_view document, std::span<const std::string> pointers);

/// The check --field's values get when given: a Gap (malformed) when `pointer` is no RFC 6901
/// pointer.
Result<bool> check_field_pointer(std::string_view pointer);

}  // namespace rdmi::cli
