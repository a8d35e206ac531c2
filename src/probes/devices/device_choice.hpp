// recommend_device(): the function an RDMI DPA workload should use on this system, or why none.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "probes/devices/devices.hpp"

namespace rdmi {

/// The rule, in one sentence, for documents that report the choice.
inline constexpr std::string_view kDeviceChoiceRule =
    "a function qualifies when its DPA is supported, it has an RDMA device (mlx5_ib bound) and "
    "at least one port is ACTIVE; among those a PF wins over an SF, an SF over a VF (a PF owns "
    "the DPA and its port), then the lowest function name (shorter first, so "
    "mlx5_core.sf.2 before mlx5_core.sf.10)";

/// The chosen function, or none with the reason.
struct DeviceChoice {
    std::optional<std::string> function;  ///< PCI address or mlx5_core.sf.N
    std::string rdma_device;              ///< its first RDMA device ("" when none chosen)
    std::string reason;                   ///< why it was chosen, or why none qualifies
};

/// Applies kDeviceChoiceRule to the summary rows. Pure.
DeviceChoice recommend_device(const DevicesFacts& facts);

}  // namespace rdmi
