// Tests for the device-id table and the DPA inference it carries.
#include "sysfs/pci_ids.hpp"

#include <doctest/doctest.h>

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

}  // namespace rdmi::sysfs
