// Tests for the device-id table and the DPA inference it carries.
#include "sysfs/pci_ids.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string_view>
#include <utility>

namespace rdmi::sysfs {

TEST_CASE("find_product: names, VFs and DPA per docs/reference/sysfs-formats.md") {
    CHECK(find_product(0x1021)->name == "ConnectX-7");
    CHECK(find_product(0x1021)->dpa == DpaSupport::yes);
    CHECK(find_product(0x1023)->dpa == DpaSupport::yes);
    CHECK(find_product(0x1025)->dpa == DpaSupport::yes);
    CHECK(find_product(0xa2dc)->dpa == DpaSupport::yes);
    CHECK(find_product(0xa2dc)->bluefield);
    CHECK(find_product(0xa2d9)->dpa == DpaSupport::unknown);
    CHECK(find_product(0xa2d9)->dpa_note == "unconfirmed");
    CHECK(find_product(0xa2df)->dpa == DpaSupport::unknown);
    CHECK(find_product(0xa2d6)->dpa == DpaSupport::no);
    CHECK(find_product(0x101d)->dpa == DpaSupport::no);
    CHECK(find_product(0x1013)->name == "ConnectX-4");
    CHECK(find_product(0x1027)->name == "ConnectX-10");
    CHECK(find_product(0x101e)->virtual_function);
    CHECK_FALSE(find_product(0x1021)->virtual_function);
    CHECK(find_product(0xc2d5)->name == "BlueField-3 SoC Management Interface");
    CHECK_FALSE(find_product(0x1234).has_value());
    CHECK(to_string(DpaSupport::unknown) == "unknown");
}

TEST_CASE("pci.ids names: BlueField-4 is no ConnectX-8, and every SoC management interface") {
    CHECK(find_product(0xa2df)->name == "BlueField-4 integrated network controller");
    CHECK(find_product(0xa2df)->role == FunctionRole::network);
    for (const std::uint32_t id : {0xc2d2U, 0xc2d3U, 0xc2d4U, 0xc2d5U, 0xc2d6U}) {
        CAPTURE(id);
        REQUIRE(find_product(id).has_value());
        CHECK(find_product(id)->role == FunctionRole::management);
        CHECK(find_product(id)->bluefield);
        CHECK(role_of(id) == FunctionRole::management);
    }
    CHECK(find_product(0xc2d3)->name == "BlueField-2 SoC Management Interface");
    CHECK(find_product(0xc2d4)->name == "BlueField-3 Lx SoC Management Interface");
    CHECK(find_product(0xc2d6)->name == "BlueField-4 SoC Management Interface");
    // The auxiliary communication channel is a BlueField function but no management interface.
    CHECK(find_product(0xc2d1)->name == "BlueField DPU Family Auxiliary Communication Channel");
    CHECK(role_of(0xc2d1) == FunctionRole::other);
}

TEST_CASE("NVIDIA functions that are no RDMA NICs are known, and known as such") {
    const std::pair<std::uint32_t, std::string_view> others[] = {
        {0x1024, "ConnectX-8 PCIe Switch"},
        {0x1028, "ConnectX-10 Trusted Network Control Memory"},
        {0x2100, "CX8 Data Direct Interface"},
        {0x6001, "NVMe SNAP Controller"},
    };
    for (const auto& other : others) {
        // Named, not a structured binding: clang 14 cannot capture one in CAPTURE's lambda.
        const std::uint32_t id = other.first;
        const std::string_view name = other.second;
        CAPTURE(id);
        REQUIRE(find_product(id).has_value());
        CHECK(find_product(id)->name == name);
        CHECK(role_of(id) == FunctionRole::other);
        CHECK(find_product(id)->dpa == DpaSupport::no);
    }
    // NICs stay NICs, and an id nobody lists is still shown as a possible NIC.
    CHECK(role_of(0x1023) == FunctionRole::network);
    CHECK(role_of(0xa2dc) == FunctionRole::network);
    CHECK(role_of(0x1234) == FunctionRole::network);
    CHECK(to_string(FunctionRole::other) == "other");
    CHECK(to_string(FunctionRole::management) == "management");
}

}  // namespace rdmi::sysfs
