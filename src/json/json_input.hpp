// Bounded parsing of JSON that comes from outside the program: a child's answer, a bundle's
// manifest, a saved document given to `diff`, a policy, a version matrix. One parser for all of
// them; what differs between kinds of input (how big, what it should hold) is a JsonInputKind.
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace rdmi {

/// Deepest nesting of arrays and objects accepted by default: every document rdmi-probe reads
/// nests fewer than 10 levels, and the code that walks a parsed tree recurses.
inline constexpr std::size_t kMaxJsonInputDepth = 256;

/// One kind of JSON input: its caps, and the words an empty one is refused with.
struct JsonInputKind {
    std::string_view noun;      ///< what it arrives as: "file", "answer"
    std::string_view expected;  ///< what it should hold: "a JSON object with schema_version"
    std::size_t max_bytes;      ///< read no more than this; a bigger input is refused unparsed
    std::size_t max_depth = kMaxJsonInputDepth;
    /// Keep a number no double holds exactly as its text (json/exact_number.hpp), for inputs
    /// compared by value: rounded, two numbers that differ would read equal.
    bool exact_numbers = false;
};

namespace json_input {
/// A child process's or tool's answer on a pipe (verbs, DOCA caps, uname, the loopback verdict).
inline constexpr JsonInputKind kChildAnswer{"answer", "a JSON object", std::size_t{16} << 20U};
/// A bundle's manifest.json and captured.json (a manifest lists every file: 16 MiB holds
/// about 200,000 of them).
inline constexpr JsonInputKind kBundleFile{"file", "a JSON object", std::size_t{16} << 20U};
/// A saved rdmi-probe document given to `diff`. Real ones are well under 1 MiB; the parsed
/// tree takes several times the text, so this also bounds diff's memory.
inline constexpr JsonInputKind kSavedDocument{"file", "a document rdmi-probe writes",
                                              std::size_t{16} << 20U, kMaxJsonInputDepth, true};
/// A `check --policy` file: a few requirements.
inline constexpr JsonInputKind kPolicy{"file", "a JSON object with schema_version",
                                       std::size_t{1} << 20U};
/// <prefix>/share/version-matrix.json: a table of capabilities.
inline constexpr JsonInputKind kVersionMatrix{"file", "a JSON object with entries",
                                              std::size_t{1} << 20U};
/// One JSON-RPC message an MCP client sends on a line of `rdmi-probe mcp`'s stdin (a tools/call
/// may carry two saved documents inline for `diff`). Nesting is bounded tighter than a file's:
/// no request of the protocol nests deeper than a policy inside a call.
inline constexpr JsonInputKind kMcpMessage{"message", "a JSON-RPC 2.0 message",
                                           std::size_t{8} << 20U, 64};
}  // namespace json_input

/// The offset of the first '[' or '{' (outside strings) nested deeper than `limit`, or npos.
std::size_t json_too_deep_at(std::string_view bytes, std::size_t limit);

/// Parses `bytes` as one JSON document of `kind`. Never throws on bad input: an empty,
/// oversized, too deeply nested, truncated, non-UTF-8 or otherwise invalid document, a key
/// repeated in one object and a number out of the range of a double are a Gap (malformed)
/// with a one-line message "<name>: <problem>" (with the line and column of a syntax error,
/// the JSON pointer of a well-formed but refused value). `name` is how the input is shown
/// (a path, or e.g. "doca_caps output"). BasicJson is nlohmann::json or ordered_json. A kind
/// with `exact_numbers` keeps the numbers no double holds as their text (exact_number_text()).
template <class BasicJson = nlohmann::json>
Result<BasicJson> parse_json_input(std::string_view bytes, std::string_view name,
                                   const JsonInputKind& kind);

extern template Result<nlohmann::json> parse_json_input<nlohmann::json>(std::string_view,
                                                                        std::string_view,
                                                                        const JsonInputKind&);
extern template Result<nlohmann::ordered_json> parse_json_input<nlohmann::ordered_json>(
    std::string_view, std::string_view, const JsonInputKind&);

}  // namespace rdmi
