// classify_host(): host vs BlueField Arm side, and the BlueField mode, with the evidence.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/check.hpp"
#include "host/platform.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi::host {

/// The contract's `host_kind`.
enum class HostKind { host, bluefield, unknown };

/// "host", "bluefield" or "unknown".
std::string_view to_string(HostKind kind);

/// The contract's `bf_mode` values.
enum class BfMode { dpu, smartnic, switch_mode };

/// "dpu", "smartnic" or "switch".
std::string_view to_string(BfMode mode);

/// One observation that bore on a verdict.
struct Evidence {
    std::string fact;  ///< "architecture aarch64", "representor pf0hpf (pcipf)", ...
    Provenance source;
};

/// The verdicts and everything they rest on.
struct HostClassification {
    HostKind host_kind = HostKind::unknown;
    std::vector<Evidence> host_kind_evidence;
    std::optional<BfMode> bf_mode;  ///< nullopt when undecided or not a BlueField
    std::vector<Evidence> bf_mode_evidence;
    std::optional<Gap> bf_mode_gap;  ///< why bf_mode is nullopt
    /// The privileged command that would decide the mode (never run by the probe); empty when
    /// no BlueField function is visible.
    std::string bf_mode_command;
};

/// Decides host_kind from the architecture, the MLNXBF* ACPI devices, /etc/mlnx-release, a
/// "-bluefield" kernel and the local PCI ids; and bf_mode (on the Arm side only) from SFs and
/// representors, which exist in DPU mode. Pure: reads nothing.
HostClassification classify_host(const PlatformFacts& platform,
                                 const sysfs::DeviceInventory& devices);

}  // namespace rdmi::host
