// Bounded parsing of JSON that comes from outside the program.
#include "json/json_input.hpp"

#include <string>

#include "json/json_strict.hpp"

namespace rdmi {
namespace {

struct Position {
    std::size_t line = 1;
    std::size_t column = 1;
};

// nlohmann reports a byte offset; people want line and column, counted the same way editors do.
Position position_of(std::string_view bytes, std::size_t offset) {
    Position pos;
    const std::size_t end = offset < bytes.size() ? offset : bytes.size();
    for (std::size_t i = 0; i < end; ++i) {
        if (bytes[i] == '\n') {
            ++pos.line;
            pos.column = 1;
        } else {
            ++pos.column;
        }
    }
    return pos;
}

std::string at(std::string_view bytes, std::size_t offset) {
    const Position pos = position_of(bytes, offset);
    return " at line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

}  // namespace

std::string json_pointer_append(std::string_view parent, std::string_view key) {
    return std::string(parent) + "/" + json_pointer_token(key);
}

std::string json_pointer_token(std::string_view key) {
    std::string out;
    out.reserve(key.size());
    for (const char c : key) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

// Linear and iterative: the depth is known before the JSON library builds (and later destroys)
// a tree, so a 10k-deep document never reaches its recursive code paths.
std::size_t json_too_deep_at(std::string_view bytes, std::size_t limit) {
    std::size_t depth = 0;
    bool in_string = false;
    bool escaped = false;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

namespace {

// "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." -> the
// part after the position, which is the useful one; the position is recomputed by at(). The
// library's "; last read: '...'" quotes the input's own bytes: they are left out, since the
// input may be any file the caller can read (a root MCP server's `diff` of /etc/shadow would
// show its first line), and the line and column already say where to look.
std::string reason_of(const std::string& what) {
    const auto colon = what.find(": ");
    std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
    if (const auto quoted = reason.find("; last read: "); quoted != std::string::npos)
        reason.erase(quoted);
    for (char& c : reason) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    return reason;
}

}  // namespace

template <class BasicJson>
Result<BasicJson> parse_json_input(std::string_view bytes, std::string_view name,
                                   const JsonInputKind& kind) {
    const std::string shown(name);
    if (bytes.size() > kind.max_bytes) {
        return make_gap(GapReason::malformed, shown + ": JSON input too large (" +
                                                  std::to_string(bytes.size()) + " bytes, limit " +
                                                  std::to_string(kind.max_bytes) + ")");
    }
    if (bytes.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        return make_gap(GapReason::malformed, shown + ": empty " + std::string(kind.noun) +
                                                  " (expected " + std::string(kind.expected) + ")");
    }
    // The JSON library's lexer takes a NUL byte for the end of the input (so that C strings
    // parse): "{}\0<anything>" was accepted and the rest silently dropped. JSON text never holds
    // a raw NUL, inside a string or out.
    if (const auto nul = bytes.find('\0'); nul != std::string_view::npos) {
        return make_gap(GapReason::malformed,
                        shown + ": invalid JSON" + at(bytes, nul) + ": a NUL byte (JSON has none)");
    }
    if (const auto deep = json_too_deep_at(bytes, kind.max_depth); deep != std::string_view::npos) {
        return make_gap(GapReason::malformed, shown + ": JSON nested deeper than " +
                                                  std::to_string(kind.max_depth) + " levels" +
                                                  at(bytes, deep));
    }
    try {
        return parse_json_strict<BasicJson>(bytes, kind.exact_numbers);
    } catch (const JsonInputError& e) {
        return make_gap(GapReason::malformed, shown + ": " + e.message());
    } catch (const typename BasicJson::parse_error& e) {
        // e.byte is 1-based: the byte at which the parser gave up.
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        return make_gap(GapReason::malformed,
                        shown + ": invalid JSON" + at(bytes, offset) + ": " + reason_of(e.what()));
    } catch (const typename BasicJson::exception& e) {
        return make_gap(GapReason::malformed, shown + ": invalid JSON: " + reason_of(e.what()));
    }
}

template Result<nlohmann::json> parse_json_input<nlohmann::json>(std::string_view, std::string_view,
                                                                 const JsonInputKind&);
template Result<nlohmann::ordered_json> parse_json_input<nlohmann::ordered_json>(
    std::string_view, std::string_view, const JsonInputKind&);

}  // namespace rdmi
