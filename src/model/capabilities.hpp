// The per-device DOCA capabilities the capability-snapshot reports, derived from the DOCA layer
// of the devices probe (src/probes/doca_caps*).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/check.hpp"
#include "probes/doca_caps/doca_caps.hpp"
#include "probes/install/install.hpp"

namespace rdmi::contract {

/// One doca_devinfo and the capability flags each library reported supported on it.
struct DeviceCapabilities {
    std::string pcie_address;  ///< "0000:03:00.0"
    /// Library ("doca_rdma") -> flags ("task_write", ...), each list sorted and unique.
    std::map<std::string, std::vector<std::string>> library_capabilities;
    std::vector<Provenance> sources;  ///< the API calls the flags came from
};

/// What the capability discovery found, or why it found nothing.
struct CapabilityDiscovery {
    std::vector<DeviceCapabilities> devices;
    Provenance source;      ///< how the device list was obtained
    std::vector<Gap> gaps;  ///< why devices (or some of their flags) are missing
};

/// The capability flag a DOCA query symbol stands for: "task_write" for
/// doca_rdma_cap_task_write_is_supported, "dpa" for doca_dpa_cap_is_supported (a library's
/// own "is supported" query names the library); nullopt for a symbol that is not
/// doca_<lib>_cap_<...>_is_supported with `library` = "doca_<lib>".
std::optional<std::string> capability_flag(std::string_view library, std::string_view symbol);

/// Per-device capabilities from the DOCA layer of the devices probe (doca_devinfo list, then
/// each library's doca_<lib>_cap_* queries); no devices and a gap that says why when DOCA is
/// absent, untrusted, or under --root (`live` false). Pure.
CapabilityDiscovery device_capabilities(bool live, const InstallFacts& install,
                                        const DocaCapsFacts& doca);

}  // namespace rdmi::contract
