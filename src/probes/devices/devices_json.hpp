// The `devices` section of the full JSON report.
#pragma once

#include "json/json_common.hpp"
#include "probes/devices/devices.hpp"

namespace rdmi::json {

/// The devices section: summary, sysfs inventory, platform, host kind, verbs and DOCA layers.
Json devices(const DevicesFacts& facts);

}  // namespace rdmi::json
