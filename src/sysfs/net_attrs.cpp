// Parsers for netdev attributes; operstate names from net/core/net-sysfs.c, port names from
// drivers/net/ethernet/mellanox/mlx5/core/en_rep.c (mlx5e_rep_get_phys_port_name).
#include "sysfs/net_attrs.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "sysfs/attr_text.hpp"

namespace rdmi::sysfs {
namespace {

constexpr std::array<std::string_view, 7> kOperstates = {
    "unknown", "notpresent", "down", "lowerlayerdown", "testing", "dormant", "up"};

bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Consumes a decimal number at the front of `text`.
std::optional<std::uint32_t> take_number(std::string_view& text) {
    std::uint32_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 10);
    if (ec != std::errc() || ptr == text.data()) return std::nullopt;
    text.remove_prefix(static_cast<std::size_t>(ptr - text.data()));
    return value;
}

bool take_prefix(std::string_view& text, std::string_view prefix) {
    if (text.substr(0, prefix.size()) != prefix) return false;
    text.remove_prefix(prefix.size());
    return true;
}

}  // namespace

Result<std::uint32_t> parse_mtu(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    auto value = parse_decimal(*line, 0xffffffffU);
    if (!value) return value.gap();
    return static_cast<std::uint32_t>(*value);
}

Result<std::uint32_t> parse_netdev_flags(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    auto value = parse_hex(*line, 0xffffffffU);
    if (!value) return value.gap();
    return static_cast<std::uint32_t>(*value);
}

Result<std::string> parse_operstate(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    if (std::find(kOperstates.begin(), kOperstates.end(), *line) == kOperstates.end())
        return malformed("unknown operstate " + quote_for_message(*line));
    return std::string(*line);
}

Result<std::string> parse_hw_address(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    // "xx:xx:...": groups of two hex digits; Ethernet has 6, IPoIB 20 (MAX_ADDR_LEN is 32).
    const std::size_t groups = (line->size() + 1) / 3;
    bool ok = line->size() % 3 == 2 && groups >= 1 && groups <= 32;
    for (std::size_t i = 0; ok && i < line->size(); ++i)
        ok = (i % 3 == 2) ? (*line)[i] == ':' : is_hex((*line)[i]);
    if (!ok) return malformed("not a hardware address: " + quote_for_message(*line));
    std::string out(*line);
    std::transform(out.begin(), out.end(), out.begin(), [](char c) {
        return (c >= 'A' && c <= 'F') ? static_cast<char>(c - 'A' + 'a') : c;
    });
    return out;
}

std::string_view to_string(PortFlavour flavour) {
    switch (flavour) {
        case PortFlavour::physical:
            return "physical";
        case PortFlavour::pcipf:
            return "pcipf";
        case PortFlavour::pcivf:
            return "pcivf";
        case PortFlavour::pcisf:
            return "pcisf";
    }
    return "physical";
}

std::optional<PortName> parse_port_name(std::string_view name) {
    PortName out;
    std::string_view rest = name;
    if (take_prefix(rest, "c")) {
        out.controller = take_number(rest);
        if (!out.controller) return std::nullopt;
    }
    if (take_prefix(rest, "pf")) {
        auto pf = take_number(rest);
        if (!pf) return std::nullopt;
        out.pf = *pf;
        if (rest == "hpf") {
            out.flavour = PortFlavour::pcipf;
            return out;
        }
        if (take_prefix(rest, "vf")) {
            out.flavour = PortFlavour::pcivf;
        } else if (take_prefix(rest, "sf")) {
            out.flavour = PortFlavour::pcisf;
        } else {
            return std::nullopt;
        }
        out.index = take_number(rest);
        if (!out.index || !rest.empty()) return std::nullopt;
        return out;
    }
    if (!out.controller && take_prefix(rest, "p")) {
        auto port = take_number(rest);
        if (!port || !rest.empty()) return std::nullopt;
        out.pf = *port;
        return out;
    }
    return std::nullopt;
}

}  // namespace rdmi::sysfs
