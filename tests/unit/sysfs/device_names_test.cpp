// The device names a completion offers: the class directory's entries and the PCI addresses
// their links name, over a generated fixture root and hand-made hostile ones.
#include "sysfs/device_names.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/temp_tree.hpp"
#include "sysfs_fixture.hpp"

namespace rdmi::sysfs {
namespace {

using Names = std::vector<std::string>;

TEST_CASE("device names: a fixture host's RDMA devices and the PCI functions under them") {
    const std::string root = test::sysfs_fixture_dir("bf3-host-dpu");
    CHECK(rdma_device_names(root, kDeviceNamesBudget) ==
          Names{"0000:03:00.0", "0000:03:00.1", "mlx5_0", "mlx5_1"});
}

TEST_CASE("device names: no directory, a file root or a FIFO in its place offer nothing") {
    test::TempTree tree;
    CHECK(rdma_device_names(tree.root(), kDeviceNamesBudget).empty());
    tree.write("/bundle.tar.gz", "not a directory");
    CHECK(rdma_device_names(tree.host("/bundle.tar.gz"), kDeviceNamesBudget).empty());
    tree.mkdir("/sys/class");
    tree.fifo("/sys/class/infiniband");
    CHECK(rdma_device_names(tree.root(), kDeviceNamesBudget).empty());
}

TEST_CASE("device names: names that are shell or terminal syntax are left out") {
    test::TempTree tree;
    tree.mkdir("/sys/class/infiniband");
    tree.symlink("../../devices/pci0000:00/0000:00:01.0/0000:03:00.0/infiniband/mlx5_0",
                 "/sys/class/infiniband/mlx5_0");
    tree.symlink("../../devices/x/$(reboot)/infiniband/evil", "/sys/class/infiniband/$(reboot)");
    tree.symlink("../../devices/x/a b/infiniband/sp", "/sys/class/infiniband/a b");
    tree.symlink("../../devices/x/\x1b[2J/infiniband/esc", "/sys/class/infiniband/\x1b[2J");
    // A link naming no PCI function gives the name alone.
    tree.symlink("../../devices/virtual/infiniband/rxe0", "/sys/class/infiniband/rxe0");
    CHECK(rdma_device_names(tree.root(), kDeviceNamesBudget) ==
          Names{"0000:03:00.0", "mlx5_0", "rxe0"});
}

TEST_CASE("device names: a class directory of thousands stops at the limit") {
    test::TempTree tree;
    tree.mkdir("/sys/class/infiniband");
    for (std::size_t i = 0; i < kDeviceNamesLimit + 50; ++i)
        tree.mkdir("/sys/class/infiniband/d" + std::to_string(i));
    CHECK(rdma_device_names(tree.root(), kDeviceNamesBudget).size() == kDeviceNamesLimit);
}

}  // namespace
}  // namespace rdmi::sysfs
