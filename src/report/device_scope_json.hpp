// The `device_scope` member (-d/--device): the report's, and x_rdmi_probe's in the contract
// documents, one shape for both.
#pragma once

#include "json/json_common.hpp"
#include "model/device_scope.hpp"

namespace rdmi::json {

/// {"requested": [...], "functions": [...], "not_examined": [{"function", "rdma_devices",
/// "netdevs"}]}: the names as given, the functions they selected and every other function,
/// which no device-scoped check judged. Pure.
[[nodiscard]] Json device_scope_json(const DeviceScope& scope);

}  // namespace rdmi::json
