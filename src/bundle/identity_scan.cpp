// Each matcher starts only where a token can start (after a byte that is not a letter or a
// digit) and reads a bounded window, or, for a serial number's value, the rest of its line once:
// so every byte is looked at a bounded number of times, whatever the input.
#include "bundle/identity_scan.hpp"

#include <algorithm>

namespace rdmi::bundle {
namespace {

constexpr bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
constexpr bool is_alpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_alnum(char c) {
    return is_digit(c) || is_alpha(c);
}
constexpr bool is_hex(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
constexpr int hex_value(char c) {
    return is_digit(c) ? c - '0' : lower(c) - 'a' + 10;
}

// The byte at `i`, or NUL past the end: NUL is a boundary for every matcher.
char at(std::string_view s, std::size_t i) {
    return i < s.size() ? s[i] : '\0';
}

// Hex digits from `p`, counting at most `limit + 1` (enough to tell "more than limit").
std::size_t hex_run(std::string_view s, std::size_t p, std::size_t limit) {
    std::size_t n = 0;
    while (n <= limit && is_hex(at(s, p + n))) ++n;
    return n;
}

// A dot that goes on into a longer token ("1.2.3.4.5", "node7.lab") is not an end.
bool dotted_continuation(std::string_view s, std::size_t end) {
    return at(s, end) == '.' &&
           (is_alnum(at(s, end + 1)) || at(s, end + 1) == '_' || at(s, end + 1) == '-');
}

// "aa:bb:cc:dd:ee:ff" .. 20 octets (IPoIB addresses are 20).
std::optional<std::size_t> mac_colons_at(std::string_view s, std::size_t p) {
    std::size_t q = p;
    std::size_t octets = 0;
    while (octets <= 20) {
        if (hex_run(s, q, 2) != 2) return std::nullopt;
        q += 2;
        ++octets;
        if (at(s, q) != ':') break;
        ++q;
    }
    if (octets < 6 || octets > 20 || is_alnum(at(s, q)) || at(s, q) == ':') return std::nullopt;
    return q;
}

// "aa-bb-cc-dd-ee-ff" (Windows, some BMCs): exactly six octets.
std::optional<std::size_t> mac_dashes_at(std::string_view s, std::size_t p) {
    if (p > 0 && s[p - 1] == '-') return std::nullopt;
    std::size_t q = p;
    for (int octet = 0; octet < 6; ++octet) {
        if (hex_run(s, q, 2) != 2) return std::nullopt;
        q += 2;
        if (octet < 5) {
            if (at(s, q) != '-') return std::nullopt;
            ++q;
        }
    }
    if (is_alnum(at(s, q)) || at(s, q) == '-') return std::nullopt;
    return q;
}

// "aabb.ccdd.eeff" (Cisco's notation): three groups of four.
std::optional<std::size_t> mac_dots_at(std::string_view s, std::size_t p) {
    if (p > 0 && s[p - 1] == '.') return std::nullopt;
    std::size_t q = p;
    for (int group = 0; group < 3; ++group) {
        if (hex_run(s, q, 4) != 4) return std::nullopt;
        q += 4;
        if (group < 2) {
            if (at(s, q) != '.') return std::nullopt;
            ++q;
        }
    }
    if (is_alnum(at(s, q)) || dotted_continuation(s, q)) return std::nullopt;
    return q;
}

std::optional<std::size_t> mac_at(std::string_view s, std::size_t p) {
    if (auto end = mac_colons_at(s, p)) return end;
    if (auto end = mac_dashes_at(s, p)) return end;
    return mac_dots_at(s, p);
}

// "xxxx:xxxx:xxxx:xxxx" (sysfs node_guid, sys_image_guid).
std::optional<std::size_t> guid_groups_at(std::string_view s, std::size_t p) {
    std::size_t q = p;
    for (int group = 0; group < 4; ++group) {
        if (hex_run(s, q, 4) != 4) return std::nullopt;
        q += 4;
        if (group < 3) {
            if (at(s, q) != ':') return std::nullopt;
            ++q;
        }
    }
    if (is_alnum(at(s, q)) || at(s, q) == ':') return std::nullopt;
    return q;
}

// "0x" and 16 hex digits, or 16 hex digits alone (a GUID as ibstat and DOCA print it). Sixteen
// decimal digits alone are a number (a JSON document's, a counter's), not a GUID.
std::optional<std::size_t> guid_hex_at(std::string_view s, std::size_t p) {
    std::size_t q = p;
    const bool prefixed = at(s, q) == '0' && lower(at(s, q + 1)) == 'x';
    if (prefixed) q += 2;
    if (hex_run(s, q, 16) != 16) return std::nullopt;
    const auto digits = s.substr(q, 16);
    if (!prefixed && std::all_of(digits.begin(), digits.end(), is_digit)) return std::nullopt;
    q += 16;
    if (is_alnum(at(s, q)) || at(s, q) == ':') return std::nullopt;
    return q;
}

// One decimal octet without leading zeros (0..255); its end, or nullopt.
std::optional<std::size_t> octet_at(std::string_view s, std::size_t p) {
    std::size_t n = 0;
    int value = 0;
    while (n < 4 && is_digit(at(s, p + n))) value = value * 10 + (at(s, p + n++) - '0');
    if (n == 0 || n > 3 || value > 255 || (n > 1 && at(s, p) == '0')) return std::nullopt;
    return p + n;
}

// a.b.c.d; the end of the four octets (no boundary checked).
std::optional<std::size_t> dotted_quad_at(std::string_view s, std::size_t p) {
    std::size_t q = p;
    for (int i = 0; i < 4; ++i) {
        auto end = octet_at(s, q);
        if (!end) return std::nullopt;
        q = *end;
        if (i < 3) {
            if (at(s, q) != '.') return std::nullopt;
            ++q;
        }
    }
    return q;
}

// Not part of a longer dotted or dashed token ("MLNX_OFED_LINUX-24.10-1.1.4.0" is a version).
std::optional<std::size_t> ipv4_at(std::string_view s, std::size_t p) {
    if (p > 0 && (s[p - 1] == '.' || s[p - 1] == '_' || s[p - 1] == '-')) return std::nullopt;
    auto q = dotted_quad_at(s, p);
    if (!q) return std::nullopt;
    const char next = at(s, *q);
    if (is_alnum(next) || next == '_' || next == '-' || dotted_continuation(s, *q))
        return std::nullopt;
    return q;
}

// The end of the longest IPv6 address text starting at `p` (checked by parse_ipv6 after).
std::optional<std::size_t> ipv6_at(std::string_view s, std::size_t p) {
    std::size_t q = p;
    std::size_t groups = 0;
    bool compressed = false;
    if (at(s, q) == ':' && at(s, q + 1) == ':') {
        compressed = true;
        q += 2;
    }
    while (groups < 8) {
        const std::size_t digits = hex_run(s, q, 4);
        if (digits == 0 || digits > 4) {
            if (digits > 4) return std::nullopt;
            break;
        }
        // A dotted IPv4 as the last 32 bits ("::ffff:192.0.2.1").
        if (at(s, q + digits) == '.' && groups <= 6) {
            if (auto tail = dotted_quad_at(s, q)) {
                q = *tail;
                groups += 2;
                break;
            }
            return std::nullopt;
        }
        q += digits;
        ++groups;
        if (at(s, q) != ':') break;
        if (at(s, q + 1) == ':') {
            if (compressed) return std::nullopt;
            compressed = true;
            q += 2;
        } else if (is_hex(at(s, q + 1))) {
            ++q;
        } else {
            return std::nullopt;  // "a:b:" then something else: not an address
        }
    }
    if (groups < 2 || (compressed ? groups > 7 : groups != 8)) return std::nullopt;
    const char next = at(s, q);
    if (is_alnum(next) || next == ':' || (next == '.' && is_digit(at(s, q + 1))))
        return std::nullopt;
    return q;
}

// Matches `word` (lower case) at `p` whatever the case.
bool word_at(std::string_view s, std::size_t p, std::string_view word) {
    if (s.size() - p < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if (lower(s[p + i]) != word[i]) return false;
    return true;
}

bool blank(char c) {
    return c == ' ' || c == '\t';
}

// Where a serial number's value ends: a quote, a line end, or (binary) any control byte.
bool value_stops(char c, bool binary) {
    const auto u = static_cast<unsigned char>(c);
    return c == '"' || c == '\n' || c == '\r' || (binary && (u < 0x20 || u == 0x7f));
}

// [begin, end) trimmed of trailing blanks and of a trailing backslash (the start of a JSON
// escape: replacing it would leave the closing quote escaped).
std::optional<IdentitySpan> serial_value(std::string_view s, std::size_t begin, std::size_t end) {
    while (end > begin && (blank(s[end - 1]) || s[end - 1] == '\\')) --end;
    if (end == begin) return std::nullopt;
    return IdentitySpan{begin, end, IdentityKind::serial};
}

// `serial: X`, `Serial Number = X`, `serial_no: X`, `SN: X`, `S/N: X`.
std::optional<IdentitySpan> serial_text_at(std::string_view s, std::size_t p, bool binary) {
    std::size_t q = p;
    if (word_at(s, q, "serial")) {
        q += 6;
        if (at(s, q) == ' ' || at(s, q) == '_') {
            if (word_at(s, q + 1, "number")) {
                q += 7;
            } else if (word_at(s, q + 1, "no")) {
                q += 3;
            }
        } else if (word_at(s, q, "number")) {
            q += 6;
        }
    } else if (word_at(s, q, "s/n")) {
        q += 3;
    } else if (word_at(s, q, "sn")) {
        q += 2;
    } else {
        return std::nullopt;
    }
    while (blank(at(s, q))) ++q;
    if (at(s, q) != ':' && at(s, q) != '=') return std::nullopt;
    ++q;
    while (blank(at(s, q))) ++q;
    std::size_t end = q;
    while (end < s.size() && !value_stops(s[end], binary)) ++end;
    return serial_value(s, q, end);
}

// `"board_serial": "X"`, `"serial_number":"X"`, `"sn": "X"` in a JSON document: the value up to
// its closing quote, escapes included.
std::optional<IdentitySpan> serial_json_at(std::string_view s, std::size_t p, bool binary) {
    std::size_t q = p + 1;
    std::size_t key_end = q;
    while (key_end - q <= 64 && (is_alpha(at(s, key_end)) || at(s, key_end) == '_')) ++key_end;
    if (at(s, key_end) != '"' || key_end - q > 64) return std::nullopt;
    std::string key(s.substr(q, key_end - q));
    std::transform(key.begin(), key.end(), key.begin(), lower);
    if (key.find("serial") == std::string::npos && key != "sn") return std::nullopt;
    q = key_end + 1;
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (space(at(s, q))) ++q;
    if (at(s, q) != ':') return std::nullopt;
    ++q;
    while (space(at(s, q))) ++q;
    if (at(s, q) != '"') return std::nullopt;
    const std::size_t begin = ++q;
    while (q < s.size() && !value_stops(s[q], binary)) q += s[q] == '\\' ? 2 : 1;
    return serial_value(s, begin, std::min(q, s.size()));
}

// Bytes that may be part of a host name or of a path around one.
bool host_name_char(char c, bool slash_is_boundary) {
    return is_alnum(c) || c == '-' || c == '_' || (!slash_is_boundary && c == '/');
}

}  // namespace

std::string_view identity_kind_name(IdentityKind kind) {
    switch (kind) {
        case IdentityKind::mac:
            return "mac";
        case IdentityKind::guid:
            return "guid";
        case IdentityKind::ipv6:
            return "ipv6";
        case IdentityKind::ipv4:
            return "ipv4";
        case IdentityKind::serial:
            return "serial";
        case IdentityKind::host_name:
            return "host_name";
    }
    return "mac";
}

std::optional<Ipv6Text> parse_ipv6(std::string_view text) {
    if (text.empty()) return std::nullopt;
    auto end = ipv6_at(text, 0);
    if (!end || *end != text.size()) return std::nullopt;
    Ipv6Text out;
    // The groups before "::" count from the left, those after it from the right.
    std::vector<Ipv6Text::Group> before;
    std::vector<Ipv6Text::Group> after;
    bool seen_gap = false;
    std::size_t q = 0;
    std::size_t tail_groups = 0;
    while (q < text.size()) {
        if (text[q] == ':') {
            if (q + 1 < text.size() && text[q + 1] == ':') {
                seen_gap = true;
                q += 2;
            } else {
                ++q;
            }
            continue;
        }
        std::size_t digits = hex_run(text, q, 4);
        if (q + digits < text.size() && text[q + digits] == '.') {
            out.ipv4_tail = q;
            tail_groups = 2;
            break;
        }
        (seen_gap ? after : before).push_back({q, q + digits, 0});
        q += digits;
    }
    for (std::size_t i = 0; i < before.size(); ++i) before[i].index = i;
    const std::size_t right = 8 - tail_groups;
    for (std::size_t i = 0; i < after.size(); ++i) after[i].index = right - after.size() + i;
    out.groups = before;
    out.groups.insert(out.groups.end(), after.begin(), after.end());
    for (const auto& g : out.groups) {
        unsigned value = 0;
        for (std::size_t i = g.begin; i < g.end; ++i)
            value = value * 16 + static_cast<unsigned>(hex_value(text[i]));
        out.bytes[g.index * 2] = static_cast<std::uint8_t>(value >> 8U);
        out.bytes[g.index * 2 + 1] = static_cast<std::uint8_t>(value & 0xffU);
    }
    if (out.ipv4_tail) {
        std::size_t p = *out.ipv4_tail;
        for (std::size_t i = 12; i < 16; ++i) {
            unsigned value = 0;
            while (p < text.size() && is_digit(text[p])) value = value * 10 + (text[p++] - '0');
            out.bytes[i] = static_cast<std::uint8_t>(value);
            ++p;  // the dot
        }
    }
    return out;
}

IdentityScanner::IdentityScanner(std::vector<std::string> host_names) {
    for (auto& name : host_names) {
        std::transform(name.begin(), name.end(), name.begin(), lower);
        if (name.empty()) continue;
        host_names_.push_back(name);
        host_first_[static_cast<unsigned char>(name[0])] = true;
        if (is_alpha(name[0])) host_first_[static_cast<unsigned char>(name[0] - 'a' + 'A')] = true;
    }
    std::sort(host_names_.begin(), host_names_.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    host_names_.erase(std::unique(host_names_.begin(), host_names_.end()), host_names_.end());
}

std::vector<IdentitySpan> IdentityScanner::scan(std::string_view s, ScanMode mode) const {
    std::vector<IdentitySpan> found;
    const bool slash = mode.host_names_in_paths;
    std::size_t p = 0;
    while (p < s.size()) {
        const char c = s[p];
        const char prev = p > 0 ? s[p - 1] : '\0';
        std::optional<IdentitySpan> hit;
        if (c == '"') {
            hit = serial_json_at(s, p, mode.binary);
        } else if (!is_alnum(prev) && prev != ':') {
            std::optional<std::size_t> end;
            IdentityKind kind = IdentityKind::mac;
            if (is_hex(c) || c == ':') {
                if ((end = mac_at(s, p))) {
                    kind = IdentityKind::mac;
                } else if ((end = guid_groups_at(s, p))) {
                    kind = IdentityKind::guid;
                } else if ((end = ipv6_at(s, p))) {
                    kind = IdentityKind::ipv6;
                } else if ((end = guid_hex_at(s, p))) {
                    kind = IdentityKind::guid;
                } else if ((end = ipv4_at(s, p))) {
                    kind = IdentityKind::ipv4;
                }
            }
            if (end) {
                hit = IdentitySpan{p, *end, kind};
            } else if (lower(c) == 's') {
                hit = serial_text_at(s, p, mode.binary);
            }
        }
        if (!hit && host_first_[static_cast<unsigned char>(c)] && !host_name_char(prev, slash) &&
            prev != '.') {
            for (const auto& name : host_names_) {
                if (!word_at(s, p, name)) continue;
                const std::size_t end = p + name.size();
                const char next = at(s, end);
                // "node7." ends a sentence; "node7.lab" is another name.
                if (host_name_char(next, slash) || dotted_continuation(s, end)) continue;
                hit = IdentitySpan{p, end, IdentityKind::host_name};
                break;
            }
        }
        if (hit) {
            found.push_back(*hit);
            p = std::max(hit->end, p + 1);
        } else {
            ++p;
        }
    }
    return found;
}

}  // namespace rdmi::bundle
