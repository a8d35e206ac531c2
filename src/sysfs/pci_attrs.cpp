// Parsers for PCI sysfs attributes.
#include "sysfs/pci_attrs.hpp"

#include <limits>

#include "sysfs/attr_text.hpp"

namespace rdmi::sysfs {
namespace {

bool is_hex_digit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool hex_run(std::string_view text, std::size_t from, std::size_t count) {
    for (std::size_t i = from; i < from + count; ++i) {
        if (!is_hex_digit(text[i])) return false;
    }
    return true;
}

}  // namespace

Result<std::uint32_t> parse_pci_id(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    // The kernel prints these with "0x%04x" (drivers/pci/pci-sysfs.c).
    if (line->size() < 3 || line->substr(0, 2) != "0x")
        return malformed("not a 0x-prefixed PCI id: " + quote_for_message(*line));
    auto value = parse_hex(*line, 0xffff);
    if (!value) return value.gap();
    return static_cast<std::uint32_t>(*value);
}

Result<std::int32_t> parse_numa_node(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    auto value = parse_signed(*line, -1, std::numeric_limits<std::int32_t>::max());
    if (!value) return value.gap();
    return static_cast<std::int32_t>(*value);
}

Result<std::uint32_t> parse_count(std::string_view bytes) {
    auto line = attr_line(bytes);
    if (!line) return line.gap();
    auto value = parse_decimal(*line, std::numeric_limits<std::uint32_t>::max());
    if (!value) return value.gap();
    return static_cast<std::uint32_t>(*value);
}

bool is_pci_address(std::string_view name) {
    // "0000:03:00.0": 4 hex, ':', 2 hex, ':', 2 hex, '.', one digit 0-7.
    if (name.size() != 12 || name[4] != ':' || name[7] != ':' || name[10] != '.') return false;
    return hex_run(name, 0, 4) && hex_run(name, 5, 2) && hex_run(name, 8, 2) && name[11] >= '0' &&
           name[11] <= '7';
}

}  // namespace rdmi::sysfs
