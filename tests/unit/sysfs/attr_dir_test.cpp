// Tests for AttrDir: provenance, renamed gap messages, link names.
#include "sysfs/attr_dir.hpp"

#include <doctest/doctest.h>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"
#include "sysfs/pci_attrs.hpp"

namespace rdmi::sysfs {

TEST_CASE("AttrDir reads through the actual path and names the shown one") {
    test::TempTree tree;
    tree.write("/sys/devices/x/vendor", "0x15b3\n");
    tree.write("/sys/devices/x/device", "nope\n");
    tree.write("/sys/devices/x/big", std::string(kAttrCap + 1, '1'));
    tree.symlink("../../bus/pci/drivers/mlx5_core", "/sys/devices/x/driver");
    tree.symlink("../devices/x", "/sys/bus/x");
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    const AttrDir dir(*fs, "/sys/bus/x", "/sys/devices/x");
    const auto vendor = dir.get<std::uint32_t>("vendor", parse_pci_id);
    CHECK(vendor.value == 0x15b3U);
    CHECK(vendor.source.kind == "sysfs");
    CHECK(vendor.source.ref == "/sys/bus/x/vendor");
    CHECK(dir.get<std::uint32_t>("device", parse_pci_id).gap->message ==
          "/sys/bus/x/device: not a 0x-prefixed PCI id: \"nope\"");
    CHECK(dir.get<std::uint32_t>("absent", parse_pci_id).gap->message ==
          "/sys/bus/x/absent: no such file or directory");
    CHECK(dir.read("big").gap().message == "/sys/bus/x/big: larger than 4096 bytes");
    CHECK(dir.link_name("driver").value == "mlx5_core");             // dangling, still named
    CHECK(dir.link_name("vendor").gap->reason == GapReason::error);  // not a link (EINVAL)
    CHECK(dir.child("net").shown("mtu") == "/sys/bus/x/net/mtu");
    CHECK(provenance_of("/proc/modules").kind == "procfs");
    CHECK(provenance_of("/etc/mlnx-release").kind == "file");
    CHECK(provenance_of("/system").kind == "file");
}

}  // namespace rdmi::sysfs
