// The device scope as JSON.
#include "report/device_scope_json.hpp"

namespace rdmi::json {

Json device_scope_json(const DeviceScope& scope) {
    Json not_examined = Json::array();
    for (const auto& function : scope.not_examined) {
        not_examined.push_back(object({{"function", function.function},
                                       {"rdma_devices", function.rdma_devices},
                                       {"netdevs", function.netdevs}}));
    }
    return object({{"requested", scope.requested},
                   {"functions", scope.functions},
                   {"not_examined", std::move(not_examined)}});
}

}  // namespace rdmi::json
