// `report --device NAME` (text): one key/value block per named function, as `ibv_devinfo -v`
// shows a device, with where each datum came from.
#pragma once

#include <string>

#include "model/facts.hpp"

namespace rdmi::text {

/// For each function of `facts.device_scope`: its PCI attributes, DPA, PCIe link, rdma devices
/// (with their ports) and netdevs, keys named as sysfs names the attribute, each value followed
/// by its provenance (or why it is missing) on a line of its own; then the functions not
/// examined. Lines stay within 80 columns except an unbreakable path. "" without a scope.
std::string device_blocks(const Facts& facts);

}  // namespace rdmi::text
