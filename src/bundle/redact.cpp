// Redaction: placeholders keep each value's shape (a MAC stays six colon-separated octets, a
// node_guid four groups of four hex digits), so that the probe's parsers still read a redacted
// bundle and its verdicts, not its identities, replay.
#include "bundle/redact.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <regex>

namespace rdmi::bundle {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// Hex digits of `n`, left-padded to `width`.
std::string hex(std::size_t n, std::size_t width) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*zx", static_cast<int>(width), n);
    std::string s(buf);
    return width != 0 && s.size() > width ? s.substr(s.size() - width) : s;
}

// A value of the same shape as `value` (same separators, same group widths) whose hex digits
// spell `n` from the right, and the first octet is 02 (a locally administered MAC) when
// `local` holds.
std::string same_shape(const std::string& value, std::size_t n, bool local) {
    std::string digits = hex(n, 0);
    std::string out = value;
    std::size_t next = digits.size();
    for (std::size_t i = out.size(); i-- > 0;) {
        if (std::isxdigit(static_cast<unsigned char>(out[i])) == 0) continue;
        out[i] = next > 0 ? digits[--next] : '0';
    }
    if (local && out.size() >= 2) {
        out[0] = '0';
        out[1] = '2';
    }
    return out;
}

struct Pattern {
    const char* kind;
    std::regex re;
};

const std::vector<Pattern>& patterns() {
    // Longest shapes first: a 20-octet IPoIB address holds a GUID, an IPv6 address looks like
    // hex groups. Neighbours are checked so that part of a longer token is never taken.
    static const std::vector<Pattern> kPatterns = [] {
        const auto flags = std::regex::ECMAScript | std::regex::icase | std::regex::optimize;
        return std::vector<Pattern>{
            {"mac", std::regex(R"((^|[^0-9a-f:])((?:[0-9a-f]{2}:){5,19}[0-9a-f]{2})(?![0-9a-f:]))",
                               flags)},
            {"guid",
             std::regex(R"((^|[^0-9a-f:])((?:[0-9a-f]{4}:){3}[0-9a-f]{4})(?![0-9a-f:]))", flags)},
            {"guid", std::regex(R"((^|[^0-9a-z])(0x[0-9a-f]{16})(?![0-9a-f]))", flags)},
            {"ipv6",
             std::regex(
                 R"((^|[^0-9a-f:])((?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,5})?)(?![0-9a-f:]))",
                 flags)},
            // Not part of a longer dotted or dashed token ("MLNX_OFED_LINUX-24.10-1.1.4.0" is a
            // version, not an address).
            {"ipv4",
             std::regex(
                 R"((^|[^0-9a-z._-])((?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))(?![0-9a-z._-]))",
                 flags)},
            // "serial": "..." in a JSON document, "Serial Number: ..." in a tool's output.
            {"serial",
             std::regex(
                 R"re((^|[^a-z])((?:"[a-z_]*serial[a-z_]*"\s*:\s*"|serial[ _]?(?:number|no)?\s*[:=]\s*))([^"\n]+))re",
                 flags)},
        };
    }();
    return kPatterns;
}

// A host name is replaced only as a whole token: "doca" or "ubuntu" as a host name must not
// turn /opt/mellanox/doca into /opt/mellanox/host-1 (the replay would read other paths), nor
// be taken out of a longer word. Path components are never rewritten (docs/gather.md).
bool host_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '/';
}

bool whole_host_name(const std::string& text, std::size_t at, std::size_t size) {
    if (at > 0 && (host_name_char(text[at - 1]) || text[at - 1] == '.')) return false;
    const std::size_t end = at + size;
    if (end >= text.size()) return true;
    // "node1." ends a sentence; "node1.lab" is another name.
    if (text[end] == '.') return end + 1 >= text.size() || !host_name_char(text[end + 1]);
    return !host_name_char(text[end]);
}

}  // namespace

bool is_serial_file(std::string_view path) {
    const std::string name =
        lower(path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1));
    return name.find("serial") != std::string::npos;
}

Redactor::Redactor(std::vector<std::string> host_names) {
    for (auto& name : host_names) {
        while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
            name.pop_back();
        // A one-letter or generic name would hit ordinary words.
        if (name.size() < 3 || name == "localhost") continue;
        host_names_.push_back(name);
        // The short name of a fully qualified one is the same identity.
        if (auto dot = name.find('.'); dot != std::string::npos && dot >= 3)
            host_names_.push_back(name.substr(0, dot));
    }
    // Longest first, so "node1.example.com" goes before "node1".
    std::sort(host_names_.begin(), host_names_.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    host_names_.erase(std::unique(host_names_.begin(), host_names_.end()), host_names_.end());
}

// An all-zero or all-ones value (an unused GID slot, the broadcast MAC, 0.0.0.0) identifies
// nothing, and the probe reads it as "empty": it stays.
bool identifies_nothing(const std::string& value) {
    bool zeros = true;
    bool ones = true;
    for (const char c : value) {
        if (std::isxdigit(static_cast<unsigned char>(c)) == 0) continue;
        zeros = zeros && c == '0';
        ones = ones && (c == 'f' || c == 'F');
    }
    return zeros || ones || value == "255.255.255.255";
}

std::string Redactor::placeholder(const std::string& kind, const std::string& value) {
    if (kind != "serial" && kind != "host_name" && identifies_nothing(value)) return value;
    auto& known = seen_[kind];
    const std::string key = lower(value);
    // Text redacted twice (a redacted path quoted in the manifest) keeps its placeholder.
    if (masks_.contains(key)) return value;
    if (auto it = known.find(key); it != known.end()) return it->second;
    const std::size_t n = known.size() + 1;
    std::string mask;
    if (kind == "mac") {
        mask = same_shape(value, n, true);
    } else if (kind == "guid" || kind == "ipv6") {
        mask = same_shape(value, n, false);
    } else if (kind == "ipv4") {
        // TEST-NET-1 (RFC 5737): documentation addresses.
        mask = "192.0.2." + std::to_string(n % 256);
    } else if (kind == "host_name") {
        mask = "host-" + std::to_string(n);
    } else {
        mask = "SERIAL-" + std::to_string(n);
    }
    known.emplace(key, mask);
    masks_.insert(lower(mask));
    return mask;
}

std::string Redactor::text(std::string_view text, std::string_view path) {
    if (is_serial_file(path)) {
        std::string value(text);
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
            value.pop_back();
        if (value.empty()) return std::string(text);
        return placeholder("serial", value) + std::string(text.substr(value.size()));
    }
    std::string out(text);
    for (const auto& name : host_names_) {
        for (std::size_t at = out.find(name); at != std::string::npos;
             at = out.find(name, at + 1)) {
            if (!whole_host_name(out, at, name.size())) continue;
            const std::string mask = placeholder("host_name", name);
            out.replace(at, name.size(), mask);
            at += mask.size() - 1;
        }
    }
    for (const auto& pattern : patterns()) {
        std::string result;
        result.reserve(out.size());
        auto begin = std::sregex_iterator(out.begin(), out.end(), pattern.re);
        std::size_t copied = 0;
        for (auto it = begin; it != std::sregex_iterator(); ++it) {
            const auto& m = *it;
            const bool serial = std::string_view(pattern.kind) == "serial";
            const std::size_t value_group = serial ? 3 : 2;
            const std::size_t start = static_cast<std::size_t>(m.position(value_group));
            result.append(out, copied, start - copied);
            std::string value = m.str(value_group);
            if (serial) {
                while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
                    value.pop_back();
            }
            result += placeholder(pattern.kind, value);
            copied = start + value.size();
        }
        result.append(out, copied, std::string::npos);
        out = std::move(result);
    }
    return out;
}

std::map<std::string, std::size_t> Redactor::counts() const {
    std::map<std::string, std::size_t> out;
    for (const auto& [kind, values] : seen_) out[kind] = values.size();
    return out;
}

}  // namespace rdmi::bundle
