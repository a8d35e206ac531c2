// The `devices` section of the full JSON report.
#pragma once

#include "core/json_common.hpp"
#include "probes/devices.hpp"

namespace rdmi::json {

/// The devices section: summary, sysfs inventory, platform, host kind, verbs and DOCA layers.
Json devices(const DevicesFacts& facts);

}  // namespace rdmi::json
