// Parsers for rdma device and port attributes under /sys/class/infiniband (no I/O).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi::sysfs {

/// A "<number>: <name>" attribute: port `state` ("4: ACTIVE"), `phys_state` ("5: LinkUp"),
/// `node_type` ("1: CA").
struct NumberedName {
    std::uint32_t number = 0;
    std::string name;
};

/// A port `rate` as the kernel prints it, "%d%s Gb/sec (%dX%s)" ("100 Gb/sec (4X EDR)").
struct LinkRate {
    double gbps = 0;    ///< 2.5 for "2.5 Gb/sec"
    std::string width;  ///< "4X"; empty when the text has no "(...)" part
    std::string speed;  ///< "EDR", "NDR", ...; may be empty
    std::string text;   ///< the attribute as read, trimmed
};

/// A GID as 16 bytes.
using Gid = std::array<std::uint8_t, 16>;

/// Parses "<number>: <name>".
Result<NumberedName> parse_numbered_name(std::string_view bytes);

/// `link_layer`: "InfiniBand", "Ethernet" or "Unknown"; anything else is malformed.
Result<std::string> parse_link_layer(std::string_view bytes);

/// Parses `rate`.
Result<LinkRate> parse_rate(std::string_view bytes);

/// `lid` / `sm_lid`: "0x%x", at most 16 bits.
Result<std::uint32_t> parse_lid(std::string_view bytes);

/// `node_guid` / `sys_image_guid`: "%04x:%04x:%04x:%04x"; returned in that form, lower case.
Result<std::string> parse_guid(std::string_view bytes);

/// `fw_ver`: dot-separated version text ("28.39.1002"); letters, digits, '.', '-', '_' only.
Result<std::string> parse_fw_ver(std::string_view bytes);

/// `gids/<i>`: IPv6 notation with all eight groups (the kernel's %pI6).
Result<Gid> parse_gid(std::string_view bytes);

/// True when every byte of the GID is zero (an unused table entry).
bool is_zero_gid(const Gid& gid);

}  // namespace rdmi::sysfs
