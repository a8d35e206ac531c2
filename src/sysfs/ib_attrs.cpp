// Parsers for rdma device and port attributes; formats from drivers/infiniband/core/sysfs.c.
#include "sysfs/ib_attrs.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "sysfs/attr_text.hpp"

namespace rdmi::sysfs {
namespace {

bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

char lower(char c) {
    return (c >= 'A' && c <= 'F') ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

Result<NumberedName> parse_numbered_name(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    const auto colon = line->find(": ");
    if (colon == std::string_view::npos || colon == 0 || colon + 2 >= line->size())
        return malformed("not \"<number>: <name>\": " + quote_for_message(*line));
    auto number = parse_decimal(line->substr(0, colon), 0xffffffffU);
    if (!number) return malformed("not \"<number>: <name>\": " + quote_for_message(*line));
    return NumberedName{static_cast<std::uint32_t>(*number), std::string(line->substr(colon + 2))};
}

Result<std::string> parse_link_layer(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    if (*line == "InfiniBand" || *line == "Ethernet" || *line == "Unknown")
        return std::string(*line);
    return malformed("unknown link layer " + quote_for_message(*line));
}

Result<LinkRate> parse_rate(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    constexpr std::string_view kUnit = " Gb/sec";
    const auto unit = line->find(kUnit);
    if (unit == std::string_view::npos || unit == 0)
        return malformed("not \"<n> Gb/sec (<w>X <speed>)\": " + quote_for_message(*line));
    LinkRate rate;
    rate.text = std::string(*line);
    auto gbps = parse_fixed_point(line->substr(0, unit));
    if (!gbps) return malformed("not a rate in Gb/sec: " + quote_for_message(*line));
    rate.gbps = *gbps;
    std::string_view rest = line->substr(unit + kUnit.size());
    if (rest.empty()) return rate;
    if (rest.size() < 4 || rest.substr(0, 2) != " (" || rest.back() != ')')
        return malformed("not \"<n> Gb/sec (<w>X <speed>)\": " + quote_for_message(*line));
    rest = rest.substr(2, rest.size() - 3);
    const auto x = rest.find('X');
    if (x == std::string_view::npos || x == 0 ||
        !std::all_of(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(x),
                     [](char c) { return c >= '0' && c <= '9'; }))
        return malformed("not \"<n> Gb/sec (<w>X <speed>)\": " + quote_for_message(*line));
    rate.width = std::string(rest.substr(0, x + 1));
    std::string_view speed = rest.substr(x + 1);
    while (!speed.empty() && speed.front() == ' ') speed.remove_prefix(1);
    rate.speed = std::string(speed);
    return rate;
}

Result<std::uint32_t> parse_lid(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    if (line->substr(0, 2) != "0x")
        return malformed("not a 0x-prefixed LID: " + quote_for_message(*line));
    auto value = parse_hex(*line, 0xffff);
    if (!value) return value.gap();
    return static_cast<std::uint32_t>(*value);
}

Result<std::string> parse_guid(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    // "%04x:%04x:%04x:%04x" (drivers/infiniband/core/sysfs.c show_node_guid).
    bool ok = line->size() == 19;
    for (std::size_t i = 0; ok && i < line->size(); ++i)
        ok = (i % 5 == 4) ? (*line)[i] == ':' : is_hex((*line)[i]);
    if (!ok) return malformed("not a GUID \"xxxx:xxxx:xxxx:xxxx\": " + quote_for_message(*line));
    std::string out(*line);
    std::transform(out.begin(), out.end(), out.begin(), lower);
    return out;
}

Result<std::string> parse_fw_ver(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    const bool ok = std::all_of(line->begin(), line->end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               c == '.' || c == '-' || c == '_';
    });
    if (!ok) return malformed("not a firmware version: " + quote_for_message(*line));
    return std::string(*line);
}

namespace {

// The value of a hex digit, or -1.
int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The kernel writes every entry as eight groups of four digits ("%pI6": 39 characters and a
// newline), and a real port has 255 entries, most of them zeros: that shape is read in one
// pass. nullopt for anything else, which parse_gid() then reads (and words) the general way.
std::optional<Gid> parse_full_gid(std::string_view bytes) {
    constexpr std::size_t kLength = 39;
    if (bytes.size() != kLength + 1 || bytes[kLength] != '\n') return std::nullopt;
    Gid gid{};
    for (std::size_t group = 0; group < 8; ++group) {
        const std::size_t at = group * 5;
        if (group < 7 && bytes[at + 4] != ':') return std::nullopt;
        unsigned value = 0;
        for (std::size_t i = at; i < at + 4; ++i) {
            const int digit = hex_value(bytes[i]);
            if (digit < 0) return std::nullopt;
            value = (value << 4U) | static_cast<unsigned>(digit);
        }
        gid[group * 2] = static_cast<std::uint8_t>(value >> 8U);
        gid[group * 2 + 1] = static_cast<std::uint8_t>(value & 0xffU);
    }
    return gid;
}

}  // namespace

Result<Gid> parse_gid(std::string_view bytes) {
    if (auto gid = parse_full_gid(bytes)) return *gid;
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    Gid gid{};
    std::string_view rest = *line;
    for (std::size_t group = 0; group < 8; ++group) {
        const auto colon = rest.find(':');
        const std::string_view part = group == 7 ? rest : rest.substr(0, colon);
        if ((group < 7 && colon == std::string_view::npos) || part.empty() || part.size() > 4 ||
            !std::all_of(part.begin(), part.end(), is_hex))
            return malformed("not a GID in IPv6 notation: " + quote_for_message(*line));
        unsigned value = 0;
        std::from_chars(part.data(), part.data() + part.size(), value, 16);
        gid[group * 2] = static_cast<std::uint8_t>(value >> 8U);
        gid[group * 2 + 1] = static_cast<std::uint8_t>(value & 0xffU);
        if (group < 7) rest.remove_prefix(colon + 1);
    }
    return gid;
}

bool is_zero_gid(const Gid& gid) {
    return std::all_of(gid.begin(), gid.end(), [](std::uint8_t b) { return b == 0; });
}

}  // namespace rdmi::sysfs
