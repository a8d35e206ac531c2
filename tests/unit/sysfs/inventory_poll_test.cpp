// Tests for check --wait's re-read of an inventory (inventory_poll.cpp): port states read
// again, the shape of the tree compared with the last whole scan, over copies of the
// logical-down fixture root (two PFs, mlx5_0 and mlx5_1, each one DOWN port and a netdev).
#include "sysfs/inventory_poll.hpp"

#include <doctest/doctest.h>

#include <string>

#include "sysfs/devices.hpp"
#include "sysfs_fixture.hpp"

namespace rdmi::sysfs {
namespace {

constexpr const char* kPf0 = "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0";
constexpr const char* kPf1 = "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.1";

std::string polled_port_state(const DeviceInventory& inventory, const char* device) {
    const auto* rdma = inventory.find_rdma_device(device);
    REQUIRE(rdma != nullptr);
    REQUIRE(rdma->ports.size() == 1);
    REQUIRE(rdma->ports[0].state.ok());
    return rdma->ports[0].state.value->name;
}

// A PCI function of `vendor` at 0000:00:1f.6, listed in /sys/bus/pci/devices.
void add_pci_entry_of(test::MemoryFs& fs, const char* vendor) {
    const std::string dir = "/sys/devices/pci0000:00/0000:00:1f.6";
    fs.write(dir + "/vendor", vendor);
    fs.write(dir + "/device", "0x15fb\n");
    fs.symlink(dir, "/sys/bus/pci/devices/0000:00:1f.6");
}

TEST_CASE("a poll of an unchanged tree reads the port states again and keeps the rest") {
    auto fs = test::sysfs_fixture_in_memory("logical-down");
    const DeviceInventory scanned = scan_devices(fs);
    REQUIRE(inventory_pollable(scanned));
    DeviceInventory inventory = scanned;
    InventoryPollMemory memory;
    CHECK(poll_inventory(fs, inventory, memory));
    CHECK(polled_port_state(inventory, "mlx5_0") == "DOWN");

    fs.write(std::string(kPf0) + "/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
    CHECK(poll_inventory(fs, inventory, memory));
    CHECK(polled_port_state(inventory, "mlx5_0") == "ACTIVE");
    CHECK(polled_port_state(inventory, "mlx5_1") == "DOWN");
    // What a whole scan reads now, as far as a poll re-reads it.
    const DeviceInventory rescanned = scan_devices(fs);
    CHECK(polled_port_state(rescanned, "mlx5_0") == "ACTIVE");
    const auto& polled_port = inventory.find_rdma_device("mlx5_0")->ports[0];
    const auto& scanned_port = rescanned.find_rdma_device("mlx5_0")->ports[0];
    CHECK(polled_port.state.value->number == scanned_port.state.value->number);
    CHECK(polled_port.state.source.ref == scanned_port.state.source.ref);
    CHECK_FALSE(polled_port.state.gap.has_value());
}

TEST_CASE("another vendor's PCI function does not change the shape; its vendor is read once") {
    auto fs = test::sysfs_fixture_in_memory("logical-down");
    DeviceInventory inventory = scan_devices(fs);
    InventoryPollMemory memory;
    add_pci_entry_of(fs, "0x8086\n");
    CHECK(poll_inventory(fs, inventory, memory));
    CHECK(memory.foreign_pci.contains("0000:00:1f.6"));
    // Known foreign now: a vendor file that stops reading is not looked at again.
    fs.remove("/sys/devices/pci0000:00/0000:00:1f.6/vendor");
    CHECK(poll_inventory(fs, inventory, memory));
    // Gone from the listing, it is forgotten.
    fs.remove("/sys/bus/pci/devices/0000:00:1f.6");
    CHECK(poll_inventory(fs, inventory, memory));
    CHECK(memory.foreign_pci.empty());
}

TEST_CASE("a poll refuses a tree whose shape changed: a whole scan must answer") {
    auto fs = test::sysfs_fixture_in_memory("logical-down");
    const DeviceInventory scanned = scan_devices(fs);
    InventoryPollMemory memory;
    DeviceInventory inventory = scanned;

    SUBCASE("an NVIDIA function appears") {
        add_pci_entry_of(fs, "0x15b3\n");
    }
    SUBCASE("a PCI entry appears whose vendor does not read") {
        add_pci_entry_of(fs, "0x15b3\n");
        fs.remove("/sys/devices/pci0000:00/0000:00:1f.6/vendor");
    }
    SUBCASE("a function goes away") {
        fs.remove("/sys/bus/pci/devices/0000:03:00.1");
    }
    SUBCASE("a port's rdma device goes away") {
        fs.remove("/sys/class/infiniband/mlx5_1");
    }
    SUBCASE("an rdma device appears") {
        fs.symlink(std::string(kPf1) + "/infiniband/mlx5_1", "/sys/class/infiniband/mlx5_9");
    }
    SUBCASE("a scalable function appears") {
        fs.mkdir(std::string(kPf0) + "/mlx5_core.sf.2");
        fs.symlink(std::string(kPf0) + "/mlx5_core.sf.2",
                   "/sys/bus/auxiliary/devices/mlx5_core.sf.2");
    }
    SUBCASE("a netdev is renamed") {
        fs.rename(std::string(kPf1) + "/net/ens1f1np1", std::string(kPf1) + "/net/eth1");
    }
    SUBCASE("a port's state does not read") {
        fs.remove(std::string(kPf1) + "/infiniband/mlx5_1/ports/1/state");
    }
    SUBCASE("a port's state does not parse") {
        fs.write(std::string(kPf1) + "/infiniband/mlx5_1/ports/1/state", "ACTIVE\n");
    }
    SUBCASE("/sys/bus/pci/devices goes away") {
        fs.remove("/sys/bus/pci/devices");
    }
    SUBCASE("an rdma device now belongs to another function (its device link retargeted)") {
        // The listings and states stay; a whole scan joins mlx5_0 to the other PF.
        fs.remove(std::string(kPf0) + "/infiniband/mlx5_0/device");
        fs.symlink(kPf1, std::string(kPf0) + "/infiniband/mlx5_0/device");
        const DeviceInventory rescanned = scan_devices(fs);
        REQUIRE(rescanned.find_rdma_device("mlx5_0")->function.ok());
        CHECK(*rescanned.find_rdma_device("mlx5_0")->function.value == "0000:03:00.1");
    }
    SUBCASE("an rdma device's class link is repointed at another function's device") {
        fs.remove("/sys/class/infiniband/mlx5_0");
        fs.symlink(std::string(kPf1) + "/infiniband/mlx5_1", "/sys/class/infiniband/mlx5_0");
    }
    SUBCASE("a port appears on an rdma device") {
        fs.write(std::string(kPf0) + "/infiniband/mlx5_0/ports/2/state", "4: ACTIVE\n");
        const DeviceInventory rescanned = scan_devices(fs);
        CHECK(rescanned.find_rdma_device("mlx5_0")->ports.size() == 2);
    }
    SUBCASE("an rdma device's ports directory goes away") {
        fs.remove(std::string(kPf1) + "/infiniband/mlx5_1/ports");
    }
    CHECK_FALSE(poll_inventory(fs, inventory, memory));
}

TEST_CASE("an inventory the scan left something unread in is not polled") {
    auto fs = test::sysfs_fixture_in_memory("logical-down");
    SUBCASE("a function's device id") {
        fs.remove(std::string(kPf1) + "/device");
        const DeviceInventory scanned = scan_devices(fs);
        CHECK_FALSE(inventory_pollable(scanned));
    }
    SUBCASE("a PCI entry that cannot be examined") {
        fs.symlink("/sys/devices/nowhere", "/sys/bus/pci/devices/0000:00:1f.6");
        const DeviceInventory scanned = scan_devices(fs);
        REQUIRE_FALSE(scanned.unexamined_pci.empty());
        CHECK_FALSE(inventory_pollable(scanned));
    }
    SUBCASE("an rdma device's ports") {
        fs.remove(std::string(kPf1) + "/infiniband/mlx5_1/ports");
        fs.write(std::string(kPf1) + "/infiniband/mlx5_1/ports", "not a directory\n");
        const DeviceInventory scanned = scan_devices(fs);
        CHECK_FALSE(inventory_pollable(scanned));
    }
}

}  // namespace
}  // namespace rdmi::sysfs
