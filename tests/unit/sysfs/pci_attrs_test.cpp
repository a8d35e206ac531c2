// Tests for the PCI attribute parsers.
#include "sysfs/pci_attrs.hpp"

#include <doctest/doctest.h>

namespace rdmi::sysfs {

TEST_CASE("parse_pci_id wants the kernel's 0x%04x") {
    CHECK(parse_pci_id("0x15b3\n").value() == 0x15b3U);
    CHECK(parse_pci_id("0xA2DC\n").value() == 0xa2dcU);
    CHECK(parse_pci_id("15b3\n").gap().message == "not a 0x-prefixed PCI id: \"15b3\"");
    CHECK(parse_pci_id("0x10000\n").gap().reason == GapReason::malformed);
    CHECK(parse_pci_id("0xzz\n").gap().message == "not a hexadecimal number: \"0xzz\"");
    CHECK(parse_pci_id("").gap().message == "empty");
}

TEST_CASE("parse_numa_node and parse_count") {
    CHECK(parse_numa_node("-1\n").value() == -1);
    CHECK(parse_numa_node("3\n").value() == 3);
    CHECK_FALSE(parse_numa_node("-2\n").ok());
    CHECK_FALSE(parse_numa_node("node0\n").ok());
    CHECK(parse_count("16\n").value() == 16U);
    CHECK_FALSE(parse_count("4294967296\n").ok());
    CHECK_FALSE(parse_count("1 2\n").ok());
}

TEST_CASE("is_pci_address") {
    CHECK(is_pci_address("0000:03:00.0"));
    CHECK(is_pci_address("0001:af:1f.7"));
    CHECK_FALSE(is_pci_address("0000:03:00.8"));
    CHECK_FALSE(is_pci_address("03:00.0"));
    CHECK_FALSE(is_pci_address("mlx5_core.sf.2"));
    CHECK_FALSE(is_pci_address("0000:0g:00.0"));
}

}  // namespace rdmi::sysfs
