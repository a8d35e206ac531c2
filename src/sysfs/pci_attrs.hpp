// Parsers for PCI sysfs attributes (vendor, device, numa_node, sriov_*) and PCI addresses.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.hpp"

namespace rdmi::sysfs {

/// A 16-bit PCI id file such as `vendor` ("0x15b3\n").
Result<std::uint32_t> parse_pci_id(std::string_view bytes);

/// `numa_node`: a node number, or -1 when the function has no NUMA affinity.
Result<std::int32_t> parse_numa_node(std::string_view bytes);

/// A non-negative decimal count such as `sriov_totalvfs`, `sriov_numvfs` or `sfnum`.
Result<std::uint32_t> parse_count(std::string_view bytes);

/// True for a PCI address in sysfs form, "dddd:bb:dd.f" (hex domain, bus, device; function 0-7).
bool is_pci_address(std::string_view name);

}  // namespace rdmi::sysfs
