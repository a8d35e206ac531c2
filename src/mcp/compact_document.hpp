// A call's document made compact without building its tree: the command prints it indented,
// and the answer carries it compact twice (as escaped text and as structuredContent). Parsing
// 100 KB into a tree only to dump it again cost the server more than the rest of the answer.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rdmi::mcp {

/// `text` (one JSON object and trailing whitespace) with the whitespace between its tokens
/// removed: byte for byte what nlohmann's dump(-1) of its parse writes, or nullopt when the
/// text is not in the form the program's own writer gives it and only a parse can say what that
/// dump would be: not a complete object, deeper than `max_depth`, invalid UTF-8, an escape the
/// writer does not use (`\/`, `\u0041`, upper-case hex), a number it would print otherwise
/// (`-0`, `1E5`, more digits than an int64 holds), a key "schema" whose value is not a string or
/// names the error document. The caller then parses, as before.
std::optional<std::string> compact_document(std::string_view text, std::size_t max_depth);

/// Appends `text` escaped as the body of a JSON string (no quotes), as nlohmann's dump escapes a
/// valid UTF-8 string without ensure_ascii: `"`, `\` and the C0 controls; nothing else.
void append_json_escaped(std::string& out, std::string_view text);

}  // namespace rdmi::mcp
