// One pass over the printed document: every token is checked to be in the form nlohmann's
// writer gives it (so that a parse and a compact dump would give it back unchanged) and copied
// without the whitespace between tokens. Anything else is left to the parse.
#include "mcp/compact_document.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <nlohmann/json.hpp>

namespace rdmi::mcp {
namespace {

constexpr std::size_t kNone = std::string_view::npos;
constexpr std::string_view kErrorSchema = "\"urn:rdmi-probe:schema:error\"";

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/// The length of the UTF-8 sequence at text[i] when it is one the JSON parser accepts (RFC 3629:
/// no overlong form, no surrogate, nothing past U+10FFFF), else 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) -> unsigned {
        return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0U;
    };
    const auto in = [&](std::size_t k, unsigned lo, unsigned hi) {
        return byte(k) >= lo && byte(k) <= hi;
    };
    const unsigned first = byte(0);
    if (first < 0x80U) return 1;
    if (first >= 0xC2U && first <= 0xDFU) return in(1, 0x80, 0xBF) ? 2 : 0;
    if (first == 0xE0U) return in(1, 0xA0, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
    if ((first >= 0xE1U && first <= 0xECU) || first == 0xEEU || first == 0xEFU)
        return in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
    if (first == 0xEDU) return in(1, 0x80, 0x9F) && in(2, 0x80, 0xBF) ? 3 : 0;
    if (first == 0xF0U) return in(1, 0x90, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    if (first >= 0xF1U && first <= 0xF3U)
        return in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    if (first == 0xF4U) return in(1, 0x80, 0x8F) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    return 0;
}

int lower_hex_value(char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/// The end of the string token that starts at text[i] (a quote), or kNone when it is not one the
/// writer would write: it escapes `"`, `\` and the C0 controls only, with the short forms
/// \b \f \n \r \t where they exist and \u00xx in lower case for the others.
std::size_t string_end(std::string_view text, std::size_t i) {
    ++i;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '"') return i + 1;
        if (c < 0x20U) return kNone;
        if (c == '\\') {
            if (i + 1 >= text.size()) return kNone;
            const char escape = text[i + 1];
            if (escape == '"' || escape == '\\' || escape == 'b' || escape == 'f' ||
                escape == 'n' || escape == 'r' || escape == 't') {
                i += 2;
                continue;
            }
            if (escape != 'u' || i + 5 >= text.size() || text[i + 2] != '0' || text[i + 3] != '0')
                return kNone;
            const int high = lower_hex_value(text[i + 4]);
            const int low = lower_hex_value(text[i + 5]);
            if (high < 0 || high > 1 || low < 0) return kNone;
            const int code = high * 16 + low;
            if (code == 0x08 || code == 0x09 || code == 0x0a || code == 0x0c || code == 0x0d)
                return kNone;
            i += 6;
            continue;
        }
        const std::size_t length = utf8_length(text, i);
        if (length == 0) return kNone;
        i += length;
    }
    return kNone;
}

/// The end of the number token at text[i], or kNone when the writer would print its value
/// otherwise (`-0`, an integer past int64's 18 safe digits, a float not in its shortest form).
std::size_t number_end(std::string_view text, std::size_t i) {
    const std::size_t start = i;
    const bool negative = text[i] == '-';
    if (negative) ++i;
    if (i >= text.size() || !is_digit(text[i])) return kNone;
    if (text[i] == '0') {
        ++i;
    } else {
        while (i < text.size() && is_digit(text[i])) ++i;
    }
    bool is_float = false;
    if (i < text.size() && text[i] == '.') {
        is_float = true;
        ++i;
        if (i >= text.size() || !is_digit(text[i])) return kNone;
        while (i < text.size() && is_digit(text[i])) ++i;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        is_float = true;
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        if (i >= text.size() || !is_digit(text[i])) return kNone;
        while (i < text.size() && is_digit(text[i])) ++i;
    }
    const std::string_view token = text.substr(start, i - start);
    if (!is_float) {
        const std::size_t digits = token.size() - (negative ? 1 : 0);
        if (token == "-0" || digits > 18) return kNone;
        return i;
    }
    // A float is kept only when the writer prints the double it parses to as the same text.
    const std::string copy(token);
    const double value = std::strtod(copy.c_str(), nullptr);
    if (nlohmann::json(value).dump() != token) return kNone;
    return i;
}

std::size_t literal_end(std::string_view text, std::size_t i) {
    for (const std::string_view literal : {"true", "false", "null"}) {
        if (text.substr(i, literal.size()) == literal) return i + literal.size();
    }
    return kNone;
}

/// What the next token may be.
enum class Want { value, value_or_close, key_or_close, key, colon, comma_or_close };

}  // namespace

std::optional<std::string> compact_document(std::string_view text, std::size_t max_depth) {
    std::string out;
    out.reserve(text.size());
    std::vector<char> open;  // '{' or '[' of each container the position is in
    std::size_t i = 0;
    while (i < text.size() && is_space(text[i])) ++i;
    if (i >= text.size() || text[i] != '{') return std::nullopt;
    Want want = Want::value;
    bool after_schema_key = false;
    while (true) {
        while (i < text.size() && is_space(text[i])) ++i;
        if (i >= text.size()) return std::nullopt;  // cut short
        const char c = text[i];
        if ((want == Want::key_or_close && c == '}') ||
            (want == Want::value_or_close && c == ']') ||
            (want == Want::comma_or_close && (c == '}' || c == ']'))) {
            if (c != (open.back() == '{' ? '}' : ']')) return std::nullopt;
            out += c;
            ++i;
            open.pop_back();
            if (open.empty()) break;
            want = Want::comma_or_close;
            continue;
        }
        switch (want) {
            case Want::comma_or_close:
                if (c != ',') return std::nullopt;
                out += c;
                ++i;
                want = open.back() == '{' ? Want::key : Want::value;
                continue;
            case Want::colon:
                if (c != ':') return std::nullopt;
                out += c;
                ++i;
                want = Want::value;
                continue;
            case Want::key:
            case Want::key_or_close: {
                if (c != '"') return std::nullopt;
                const std::size_t end = string_end(text, i);
                if (end == kNone) return std::nullopt;
                after_schema_key = text.substr(i, end - i) == "\"schema\"";
                out.append(text.substr(i, end - i));
                i = end;
                want = Want::colon;
                continue;
            }
            case Want::value:
            case Want::value_or_close:
                break;
        }
        // A value. A "schema" member that is not a string, or that names the error document,
        // is the parse's to judge: the server answers those otherwise.
        const bool schema_value = after_schema_key;
        after_schema_key = false;
        if (c == '{' || c == '[') {
            if (schema_value || open.size() >= max_depth) return std::nullopt;
            open.push_back(c);
            out += c;
            ++i;
            want = c == '{' ? Want::key_or_close : Want::value_or_close;
            continue;
        }
        std::size_t end = kNone;
        if (c == '"') {
            end = string_end(text, i);
        } else if (schema_value) {
            return std::nullopt;
        } else if (c == '-' || is_digit(c)) {
            end = number_end(text, i);
        } else {
            end = literal_end(text, i);
        }
        if (end == kNone) return std::nullopt;
        const std::string_view token = text.substr(i, end - i);
        if (schema_value && token == kErrorSchema) return std::nullopt;
        out.append(token);
        i = end;
        want = Want::comma_or_close;
    }
    while (i < text.size() && is_space(text[i])) ++i;
    if (i != text.size()) return std::nullopt;  // something after the document
    return out;
}

namespace {

// How many bytes each byte's escape adds: 1 for \" \\ \b \f \n \r \t, 5 for the other
// control characters (\u00XX), 0 for the rest.
constexpr std::array<std::uint8_t, 256> kEscapeExtra = [] {
    std::array<std::uint8_t, 256> extra{};
    for (std::size_t c = 0; c < 0x20; ++c) extra[c] = 5;
    for (const char c : {'"', '\\', '\b', '\f', '\n', '\r', '\t'})
        extra[static_cast<unsigned char>(c)] = 1;
    return extra;
}();

}  // namespace

void append_json_escaped(std::string& out, std::string_view text) {
    // Sized once, then filled through a pointer: a document has a quote every few bytes, and
    // an append per quote cost several times the copy itself.
    std::size_t extra = 0;
    for (const char c : text) extra += kEscapeExtra[static_cast<unsigned char>(c)];
    const std::size_t at = out.size();
    out.resize(at + text.size() + extra);
    char* to = out.data() + at;
    constexpr std::string_view kHex = "0123456789abcdef";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (kEscapeExtra[byte] == 0) {
            *to++ = c;
            continue;
        }
        *to++ = '\\';
        switch (c) {
            case '"':
            case '\\':
                *to++ = c;
                break;
            case '\b':
                *to++ = 'b';
                break;
            case '\f':
                *to++ = 'f';
                break;
            case '\n':
                *to++ = 'n';
                break;
            case '\r':
                *to++ = 'r';
                break;
            case '\t':
                *to++ = 't';
                break;
            default:
                *to++ = 'u';
                *to++ = '0';
                *to++ = '0';
                *to++ = kHex[byte >> 4U];
                *to++ = kHex[byte & 0x0fU];
        }
    }
}

}  // namespace rdmi::mcp
