// Redaction: placeholders keep each value's shape (a MAC stays six colon-separated octets, a
// node_guid four groups of four hex digits, a GID its prefix), so that the probe's parsers still
// read a redacted bundle and its verdicts, not its identities, replay. In a binary file a
// placeholder also keeps the value's length: every offset after it stays valid.
#include "bundle/redact.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "bundle/elf_regions.hpp"

namespace rdmi::bundle {
namespace {

char lower_char(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lowered(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), lower_char);
    return out;
}

bool is_hex_digit(char c) {
    return (c >= '0' && c <= '9') || (lower_char(c) >= 'a' && lower_char(c) <= 'f');
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string hex(std::size_t n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%zx", n);
    return buf;
}

// `value` with the characters at `positions` (hex digits, or decimal ones for an IPv4) spelling
// `digits` from the right, '0' where the counter is shorter; its low digits when it is longer.
std::string fill(std::string_view value, const std::vector<std::size_t>& positions,
                 std::string_view digits) {
    std::string out(value);
    std::size_t next = digits.size();
    for (std::size_t i = positions.size(); i-- > 0;)
        out[positions[i]] = next > 0 ? digits[--next] : '0';
    return out;
}

std::vector<std::size_t> hex_positions(std::string_view value, std::size_t from = 0) {
    std::vector<std::size_t> out;
    for (std::size_t i = from; i < value.size(); ++i)
        if (is_hex_digit(value[i])) out.push_back(i);
    return out;
}

// The hex digits of a value alone: one MAC or GUID however it is written.
std::string digits_key(std::string_view value) {
    std::string out;
    if (value.size() > 2 && value[0] == '0' && lower_char(value[1]) == 'x') value.remove_prefix(2);
    for (const char c : value)
        if (is_hex_digit(c)) out += lower_char(c);
    return out;
}

// An all-zero or all-ones value (an unused GID slot, the broadcast MAC, 0.0.0.0) identifies
// nothing, and the probe reads it as "empty": it stays.
bool all_zeros_or_ones(std::string_view digits) {
    const bool zeros = std::all_of(digits.begin(), digits.end(), [](char c) { return c == '0'; });
    const bool ones =
        std::all_of(digits.begin(), digits.end(), [](char c) { return lower_char(c) == 'f'; });
    return zeros || ones;
}

// "host-0001" in the length of the value it replaces, or "h01" when even "host-1" is longer.
std::string fitted(std::string_view tag, std::size_t n, std::size_t length) {
    const std::string digits = std::to_string(n);
    if (tag.size() + digits.size() <= length)
        return std::string(tag) + std::string(length - tag.size() - digits.size(), '0') + digits;
    std::string out(1, tag[0]);
    if (length <= 1) return out.substr(0, length);
    const std::size_t room = length - 1;
    out += digits.size() >= room ? digits.substr(digits.size() - room)
                                 : std::string(room - digits.size(), '0') + digits;
    return out;
}

// TEST-NET-1, -2, -3 (RFC 5737): documentation addresses, 254 in each.
std::string test_net(std::size_t n) {
    static const char* const kNets[] = {"192.0.2.", "198.51.100.", "203.0.113."};
    const std::size_t net = ((n - 1) / 254) % 3;
    return std::string(kNets[net]) + std::to_string((n - 1) % 254 + 1);
}

// Which leading groups of an IPv6 address say its kind and stay: a link-local address
// (fe80::/10) keeps its /64, an IPv4-mapped one (::ffff:0:0/96) its /96, any other its first
// group (so that a global address does not turn into a loopback or a link-local one).
std::size_t kept_groups(const Ipv6Text& address) {
    const auto& b = address.bytes;
    if (b[0] == 0xfe && (b[1] & 0xc0U) == 0x80) return 4;
    if (std::all_of(b.begin(), b.begin() + 10, [](std::uint8_t x) { return x == 0; }) &&
        b[10] == 0xff && b[11] == 0xff)
        return 6;
    return 1;
}

bool multicast_or_loopback(const Ipv6Text& address) {
    const auto& b = address.bytes;
    const bool loopback =
        std::all_of(b.begin(), b.begin() + 15, [](std::uint8_t x) { return x == 0; }) && b[15] == 1;
    return b[0] == 0xff || loopback;
}

// The written digits of the groups past the kept ones.
std::vector<std::size_t> ipv6_redacted_positions(const Ipv6Text& address) {
    const std::size_t keep = kept_groups(address);
    std::vector<std::size_t> out;
    for (const auto& g : address.groups) {
        if (g.index < keep) continue;
        for (std::size_t i = g.begin; i < g.end; ++i) out.push_back(i);
    }
    return out;
}

}  // namespace

bool is_serial_file(std::string_view path) {
    const auto slash = path.rfind('/');
    const std::string name = lowered(path.substr(slash == std::string_view::npos ? 0 : slash + 1));
    return name.find("serial") != std::string::npos;
}

bool is_binary(std::string_view bytes) {
    return is_elf(bytes) || std::memchr(bytes.data(), '\0', bytes.size()) != nullptr;
}

namespace {

std::vector<std::string> names_to_hide(std::vector<std::string> host_names) {
    std::vector<std::string> out;
    for (auto& name : host_names) {
        while (!name.empty() && is_space(name.back())) name.pop_back();
        while (!name.empty() && is_space(name.front())) name.erase(name.begin());
        name = lowered(name);
        // A one- or two-letter or generic name would hit ordinary words.
        if (name.size() < 3 || name == "localhost" || name.rfind("localhost.", 0) == 0) continue;
        out.push_back(name);
        // Every shorter dotted form names the same host: "node7", "node7.lab" of
        // "node7.lab.example.com".
        for (auto dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1))
            if (dot >= 3) out.push_back(name.substr(0, dot));
    }
    return out;
}

}  // namespace

Redactor::Redactor(std::vector<std::string> host_names)
    : scanner_(names_to_hide(std::move(host_names))) {}

std::size_t Redactor::number(IdentityKind kind, const std::string& key) {
    auto& known = seen_[std::string(identity_kind_name(kind))];
    return known.emplace(key, known.size() + 1).first->second;
}

bool Redactor::identifies(IdentityKind kind, std::string_view value) const {
    if (masks_.contains(lowered(value))) return false;
    switch (kind) {
        case IdentityKind::serial:
        case IdentityKind::host_name:
            return true;
        case IdentityKind::ipv4:
            return value != "255.255.255.255" && !all_zeros_or_ones(digits_key(value));
        case IdentityKind::ipv6: {
            auto address = parse_ipv6(value);
            if (!address || multicast_or_loopback(*address)) return false;
            if (address->ipv4_tail)
                return identifies(IdentityKind::ipv4, value.substr(*address->ipv4_tail));
            std::string digits;
            for (const auto i : ipv6_redacted_positions(*address)) digits += value[i];
            return !digits.empty() && !all_zeros_or_ones(digits);
        }
        case IdentityKind::mac:
        case IdentityKind::guid:
            return !all_zeros_or_ones(digits_key(value));
    }
    return true;
}

std::string Redactor::ipv6_placeholder(std::string_view value, bool same_length) {
    auto address = parse_ipv6(value);
    if (!address) return std::string(value);
    // The hex part before a dotted tail is a well-known prefix (::ffff:0:0/96, 64:ff9b::/96):
    // the IPv4 address is the identity, and gets the placeholder any IPv4 address gets.
    if (address->ipv4_tail) {
        const std::size_t tail = *address->ipv4_tail;
        return std::string(value.substr(0, tail)) +
               placeholder(IdentityKind::ipv4, value.substr(tail), same_length);
    }
    std::string key;
    for (const auto byte : address->bytes) {
        char pair[3];
        std::snprintf(pair, sizeof pair, "%02x", static_cast<unsigned>(byte));
        key += pair;
    }
    const std::size_t n = number(IdentityKind::ipv6, key);
    const auto positions = ipv6_redacted_positions(*address);
    const std::string digits = hex(n);
    if (same_length || digits.size() <= positions.size()) return fill(value, positions, digits);
    // Too few written digits for the counter ("fe80::1", the 17th address): all eight groups.
    const std::size_t keep = kept_groups(*address);
    std::string out;
    for (std::size_t group = 0; group < 8; ++group) {
        const unsigned word =
            group < keep
                ? (unsigned{address->bytes[group * 2]} << 8U) | address->bytes[group * 2 + 1]
                : static_cast<unsigned>((n >> (16 * (7 - group))) & 0xffffU);
        out += (group > 0 ? ":" : "") + hex(word);
    }
    return out;
}

std::string Redactor::placeholder(IdentityKind kind, std::string_view value, bool same_length) {
    if (!identifies(kind, value)) return std::string(value);
    std::string mask;
    switch (kind) {
        case IdentityKind::ipv6:
            mask = ipv6_placeholder(value, same_length);
            break;
        case IdentityKind::mac: {
            mask = fill(value, hex_positions(value), hex(number(kind, digits_key(value))));
            // A locally administered address (the U/L bit): never a vendor's.
            mask[0] = '0';
            mask[1] = '2';
            break;
        }
        case IdentityKind::guid: {
            const bool prefixed = value.size() > 2 && lower_char(value[1]) == 'x';
            mask = fill(value, hex_positions(value, prefixed ? 2 : 0),
                        hex(number(kind, digits_key(value))));
            break;
        }
        case IdentityKind::ipv4: {
            const std::size_t n = number(kind, std::string(value));
            if (!same_length) {
                mask = test_net(n);
                break;
            }
            std::vector<std::size_t> positions;
            for (std::size_t i = 0; i < value.size(); ++i)
                if (value[i] != '.') positions.push_back(i);
            mask = fill(value, positions, std::to_string(n));
            break;
        }
        case IdentityKind::host_name: {
            const std::size_t n = number(kind, lowered(value));
            mask = same_length ? fitted("host-", n, value.size()) : "host-" + std::to_string(n);
            break;
        }
        case IdentityKind::serial: {
            const std::size_t n = number(kind, std::string(value));
            mask = same_length ? fitted("SERIAL-", n, value.size()) : "SERIAL-" + std::to_string(n);
            break;
        }
    }
    masks_.insert(lowered(mask));
    return mask;
}

std::string Redactor::replaced(std::string_view text, const std::vector<IdentitySpan>& spans,
                               bool same_length) {
    std::string out;
    out.reserve(text.size());
    std::size_t copied = 0;
    for (const auto& span : spans) {
        out.append(text.substr(copied, span.begin - copied));
        const std::string_view value = text.substr(span.begin, span.end - span.begin);
        std::string mask = placeholder(span.kind, value, same_length);
        // Shapes keep the length by construction; a value the rules would not have changed
        // keeps it too. Anything else in a binary file would move every offset after it.
        if (same_length && mask.size() != value.size()) mask = value;
        out += mask;
        copied = span.end;
    }
    out.append(text.substr(copied));
    return out;
}

std::string Redactor::text(std::string_view text, std::string_view path) {
    if (is_serial_file(path)) {
        std::string_view value = text;
        while (!value.empty() && is_space(value.back())) value.remove_suffix(1);
        if (value.empty()) return std::string(text);
        return placeholder(IdentityKind::serial, value, false) +
               std::string(text.substr(value.size()));
    }
    return replaced(text, scanner_.scan(text, ScanMode{}), false);
}

std::string Redactor::metadata(std::string_view text) {
    return replaced(text, scanner_.scan(text, ScanMode{false, true}), false);
}

Result<std::string> Redactor::binary(std::string_view bytes) {
    const ScanMode mode{true, false};
    auto regions = elf_regions(bytes);
    if (!regions) return replaced(bytes, scanner_.scan(bytes, mode), true);
    auto inside_names = [&](std::size_t begin, std::size_t end) {
        return std::any_of(regions->names.begin(), regions->names.end(),
                           [&](const ByteRange& r) { return begin < r.end && r.begin < end; });
    };
    for (const auto& range : regions->names) {
        const auto names = bytes.substr(range.begin, range.end - range.begin);
        for (const auto& span : scanner_.scan(names, mode)) {
            if (!identifies(span.kind, names.substr(span.begin, span.end - span.begin))) continue;
            return Gap{GapReason::not_applicable,
                       "an ELF file with a " + std::string(identity_kind_name(span.kind)) +
                           " in its string tables (symbol, version or library names, RUNPATH), "
                           "which cannot be replaced without making it another library"};
        }
    }
    std::string out(bytes);
    for (const auto& range : regions->data) {
        const auto data = bytes.substr(range.begin, range.end - range.begin);
        for (const auto& span : scanner_.scan(data, mode)) {
            const std::size_t begin = range.begin + span.begin;
            const std::size_t end = range.begin + span.end;
            const auto value = bytes.substr(begin, end - begin);
            if (!identifies(span.kind, value)) continue;
            // Sections that overlap (a crafted file) must not let a name change.
            if (inside_names(begin, end))
                return Gap{GapReason::not_applicable,
                           "an ELF file whose data sections overlap its string tables"};
            const std::string mask = placeholder(span.kind, value, true);
            if (mask.size() == value.size()) out.replace(begin, value.size(), mask);
        }
    }
    return out;
}

bool Redactor::holds_identity(std::string_view text, ScanMode mode) const {
    const auto spans = scanner_.scan(text, mode);
    return std::any_of(spans.begin(), spans.end(), [&](const IdentitySpan& span) {
        return identifies(span.kind, text.substr(span.begin, span.end - span.begin));
    });
}

std::map<std::string, std::size_t> Redactor::counts() const {
    std::map<std::string, std::size_t> out;
    for (const auto& [kind, values] : seen_) out[kind] = values.size();
    return out;
}

}  // namespace rdmi::bundle
