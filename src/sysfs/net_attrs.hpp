// Parsers for netdev attributes under /sys/class/net (mtu, operstate, flags, address,
// phys_port_name).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi::sysfs {

/// `mtu`: a decimal byte count.
Result<std::uint32_t> parse_mtu(std::string_view bytes);

/// `operstate`: one of RFC 2863's names as the kernel prints them ("up", "down",
/// "lowerlayerdown", "dormant", "testing", "notpresent", "unknown").
Result<std::string> parse_operstate(std::string_view bytes);

/// `flags`: the interface's IFF_* bits as the kernel prints them ("0x1003", net-sysfs.c
/// `flags_show`). Bit 0x1 (IFF_UP) is the administrative state `ip link set ... up` sets.
Result<std::uint32_t> parse_netdev_flags(std::string_view bytes);

/// IFF_UP in a netdev's `flags`: administratively up.
inline constexpr std::uint32_t kNetdevAdminUp = 0x1;

/// `address`: colon-separated hex bytes (6 for Ethernet, 20 for IPoIB), lower case.
Result<std::string> parse_hw_address(std::string_view bytes);

/// The devlink port flavour a representor's `phys_port_name` encodes (mlx5 names them
/// "p0" for the uplink, "pf0hpf" for the host PF, "pf0vf3" for a VF, "pf0sf2" for an SF).
enum class PortFlavour { physical, pcipf, pcivf, pcisf };

/// The devlink name of a flavour ("physical", "pcipf", "pcivf", "pcisf").
std::string_view to_string(PortFlavour flavour);

/// A decoded mlx5 `phys_port_name`.
struct PortName {
    PortFlavour flavour = PortFlavour::physical;
    std::optional<std::uint32_t> controller;  ///< "c1pf0vf0": an external host's controller
    std::uint32_t pf = 0;                     ///< PF number (the port number for "p<N>")
    std::optional<std::uint32_t> index;       ///< VF or SF number
};

/// Decodes a `phys_port_name` value (already trimmed); nullopt when it is not an mlx5
/// port name.
std::optional<PortName> parse_port_name(std::string_view name);

}  // namespace rdmi::sysfs
