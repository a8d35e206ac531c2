// Tests for -d/--device's scope: names resolved against a real generated sysfs root (PCI
// addresses in their forms, ibdevs, netdevs), unknown names listed with what is there, and
// the device-bearing facts narrowed to the named functions.
#include "model/device_scope.hpp"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "sysfs/devices.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi {
namespace {

using Names = std::vector<std::string>;

// roce-ports: 0000:17:00.0 (mlx5_0, ens3f0np0), 0000:17:00.1 (mlx5_1, ens3f1np1),
// 0000:17:00.2 (mlx5_2), 0000:81:00.0 (mlx5_3, ibp129s0).
sysfs::DeviceInventory roce_ports() {
    return sysfs::scan_devices(test::sysfs_fixture("roce-ports"));
}

TEST_CASE("device scope: each accepted form of a name selects its function") {
    const auto inventory = roce_ports();
    REQUIRE(inventory.functions.size() == 4);
    for (const std::string name : {"mlx5_1", "0000:17:00.1", "17:00.1", "ens3f1np1"}) {
        CAPTURE(name);
        const auto resolution = resolve_device_scope(inventory, {name});
        CHECK(resolution.unknown.empty());
        CHECK(resolution.scope.functions == Names{"0000:17:00.1"});
        CHECK(resolution.scope.rdma_devices == Names{"mlx5_1"});
        CHECK(resolution.scope.not_examined.size() == 3);
    }
}

TEST_CASE("device scope: a partial address or a name that is nobody's is unknown") {
    const auto inventory = roce_ports();
    const auto resolution =
        resolve_device_scope(inventory, {"mlx5_0", "7:00.0", "00.0", "mlx5_9", "ens3f0"});
    CHECK(resolution.unknown == Names{"7:00.0", "00.0", "mlx5_9", "ens3f0"});
    // What a user may name instead, every function with its rdma devices and netdevs.
    CHECK(resolution.present == Names{"0000:17:00.0 (mlx5_0, ens3f0np0)",
                                      "0000:17:00.1 (mlx5_1, ens3f1np1)", "0000:17:00.2 (mlx5_2)",
                                      "0000:81:00.0 (mlx5_3, ibp129s0)"});
}

TEST_CASE("device scope: repeated names, in inventory order, each function once") {
    const auto inventory = roce_ports();
    const auto resolution =
        resolve_device_scope(inventory, {"mlx5_3", "mlx5_0", "0000:17:00.0", "mlx5_3"});
    CHECK(resolution.unknown.empty());
    CHECK(resolution.scope.requested == Names{"mlx5_3", "mlx5_0", "0000:17:00.0"});
    CHECK(resolution.scope.functions == Names{"0000:17:00.0", "0000:81:00.0"});
    REQUIRE(resolution.scope.not_examined.size() == 2);
    CHECK(resolution.scope.not_examined[0].function == "0000:17:00.1");
    CHECK(resolution.scope.not_examined[0].rdma_devices == Names{"mlx5_1"});
    CHECK(resolution.scope.not_examined[0].netdevs == Names{"ens3f1np1"});
    CHECK(resolution.scope.not_examined[1].function == "0000:17:00.2");
}

TEST_CASE("device scope: the scan, verbs and DOCA lists keep only the named functions") {
    SystemFacts system;
    system.inventory = roce_ports();
    const auto scope = resolve_device_scope(system.inventory, {"mlx5_1"}).scope;
    narrow_to_scope(system, scope);
    REQUIRE(system.inventory.functions.size() == 1);
    CHECK(system.inventory.functions[0].name == "0000:17:00.1");
    REQUIRE(system.inventory.rdma_devices.size() == 1);
    CHECK(system.inventory.rdma_devices[0].name == "mlx5_1");
    REQUIRE(system.inventory.netdevs.size() == 1);
    CHECK(system.inventory.netdevs[0].name == "ens3f1np1");

    VerbsFacts verbs;
    for (const char* name : {"mlx5_0", "mlx5_1", "mlx5_3"}) {
        VerbsDevice device;
        device.name = name;
        verbs.devices.push_back(device);
    }
    narrow_to_scope(verbs, scope);
    REQUIRE(verbs.devices.size() == 1);
    CHECK(verbs.devices[0].name == "mlx5_1");

    DocaCapsFacts doca;
    // No ibdev from DOCA: its PCI address decides.
    for (const auto& [pci, ibdev] :
         std::vector<std::pair<std::string, std::string>>{{"0000:17:00.0", "mlx5_0"},
                                                          {"0000:17:00.1", "mlx5_1"},
                                                          {"0000:17:00.1", ""},
                                                          {"0000:81:00.0", ""}}) {
        DocaDevice device;
        device.pci_address = pci;
        device.ibdev_name = ibdev;
        doca.devices.push_back(device);
    }
    narrow_to_scope(doca, scope);
    REQUIRE(doca.devices.size() == 2);
    CHECK(doca.devices[0].ibdev_name == "mlx5_1");
    CHECK(doca.devices[1].pci_address == "0000:17:00.1");
}

}  // namespace
}  // namespace rdmi
