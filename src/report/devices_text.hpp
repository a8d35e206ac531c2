// The devices part of the human summary.
#pragma once

#include <string>

#include "probes/devices/devices.hpp"
#include "report/text_style.hpp"

namespace rdmi::text {

/// One line per function ("0000:03:00.0  PF  BlueField-3 ...  mlx5_0/ens1f0np0  ACTIVE  DPA
/// yes (doca_dpa_cap_is_supported)"), the host kind; with -v the verbs limits and DOCA
/// capabilities per device.
std::string devices(const TextStyle& style, const DevicesFacts& facts);

}  // namespace rdmi::text
