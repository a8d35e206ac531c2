// One escaping pass for every human format: a probed string can hold terminal commands (set the
// title, clear the screen) or a line feed that forges a "PASS" line; on the terminal it is shown,
// never obeyed.
#include "report/terminal_text.hpp"

#include <cstdint>

namespace rdmi::text {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void hex_byte(std::string& out, unsigned char byte) {
    out += "\\x";
    out += kHex[byte >> 4U];
    out += kHex[byte & 0xfU];
}

void code_point(std::string& out, std::uint32_t cp) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4)
        out += kHex[(cp >> static_cast<unsigned>(shift)) & 0xfU];
}

bool hidden_control(std::uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

// "ESC [ params m": the colour sequences paint() writes. Nothing else starting with ESC stays.
std::size_t sgr_length(std::string_view text, std::size_t at) {
    if (at + 2 > text.size() || text[at + 1] != '[') return 0;
    std::size_t i = at + 2;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == ';')) ++i;
    return i < text.size() && text[i] == 'm' ? i + 1 - at : 0;
}

}  // namespace

// Overlong forms, surrogates and values past U+10FFFF are not UTF-8 (RFC 3629).
std::size_t utf8_sequence(std::string_view text, std::size_t at, std::uint32_t& cp) {
    const auto lead = static_cast<unsigned char>(text[at]);
    std::size_t length = 0;
    std::uint32_t min = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        cp = lead & 0x1fU;
        min = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        cp = lead & 0x0fU;
        min = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        cp = lead & 0x07U;
        min = 0x10000;
    } else {
        return 0;
    }
    if (text.size() - at < length) return 0;
    for (std::size_t i = 1; i < length; ++i) {
        const auto next = static_cast<unsigned char>(text[at + i]);
        if ((next & 0xc0U) != 0x80U) return 0;
        cp = (cp << 6U) | (next & 0x3fU);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return length;
}

std::string terminal_safe(std::string_view text, Keep keep) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x20 && byte < 0x7f) {
            out += static_cast<char>(byte);
            ++i;
            continue;
        }
        if (keep == Keep::layout) {
            if (byte == '\n' || byte == '\t') {
                out += static_cast<char>(byte);
                ++i;
                continue;
            }
            if (byte == 0x1b) {
                if (const std::size_t sgr = sgr_length(text, i); sgr != 0) {
                    out.append(text.substr(i, sgr));
                    i += sgr;
                    continue;
                }
            }
        }
        if (byte < 0x80) {
            if (byte == '\n') {
                out += "\\n";
            } else if (byte == '\t') {
                out += "\\t";
            } else if (byte == '\r') {
                out += "\\r";
            } else {
                hex_byte(out, byte);
            }
            ++i;
            continue;
        }
        std::uint32_t cp = 0;
        const std::size_t length = utf8_sequence(text, i, cp);
        if (length == 0) {
            hex_byte(out, byte);
            ++i;
        } else if (hidden_control(cp)) {
            code_point(out, cp);
            i += length;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

}  // namespace rdmi::text
