// The fix for RDMA ports that are not ACTIVE, from what each port says about itself.
#pragma once

#include <string>
#include <vector>

#include "sysfs/inventory.hpp"

namespace rdmi {

/// The step that brings the non-ACTIVE ports of `rdma_devices` up, one clause per cause, each
/// naming the port and what to run. A port whose physical link is up (`phys_state` LinkUp)
/// but whose logical `state` is not ACTIVE is waiting for configuration: on InfiniBand a subnet
/// manager (sminfo, opensm), on Ethernet its netdev's administrative state (ip link set NETDEV
/// up). Only a port whose physical link is down gets the cable and mlxlink. Empty when every
/// port is ACTIVE or none was read. Pure.
std::string port_down_fix(const sysfs::DeviceInventory& inventory,
                          const std::vector<std::string>& rdma_devices);

}  // namespace rdmi
