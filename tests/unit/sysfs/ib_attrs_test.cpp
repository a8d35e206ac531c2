// Tests for the rdma device and port attribute parsers.
#include "sysfs/ib_attrs.hpp"

#include <doctest/doctest.h>

#include <string>

namespace rdmi::sysfs {

TEST_CASE("parse_numbered_name") {
    const auto state = parse_numbered_name("4: ACTIVE\n").value();
    CHECK(state.number == 4U);
    CHECK(state.name == "ACTIVE");
    CHECK(parse_numbered_name("7: Phy Test\n").value().name == "Phy Test");
    CHECK_FALSE(parse_numbered_name("ACTIVE\n").ok());
    CHECK_FALSE(parse_numbered_name("x: ACTIVE\n").ok());
    CHECK_FALSE(parse_numbered_name("4: \n").ok());
    CHECK_FALSE(parse_numbered_name(": A\n").ok());
}

TEST_CASE("parse_link_layer accepts exactly the kernel's three names") {
    CHECK(parse_link_layer("InfiniBand\n").value() == "InfiniBand");
    CHECK(parse_link_layer("Ethernet\n").value() == "Ethernet");
    CHECK(parse_link_layer("Unknown\n").value() == "Unknown");
    CHECK(parse_link_layer("ethernet\n").gap().message == "unknown link layer \"ethernet\"");
}

TEST_CASE("parse_rate") {
    const auto r = parse_rate("2.5 Gb/sec (1X SDR)\n").value();
    CHECK(r.gbps == doctest::Approx(2.5));
    CHECK(r.width == "1X");
    CHECK(r.speed == "SDR");
    CHECK(r.text == "2.5 Gb/sec (1X SDR)");
    CHECK(parse_rate("800 Gb/sec (4X XDR)\n").value().speed == "XDR");
    CHECK(parse_rate("40 Gb/sec\n").value().width.empty());
    CHECK_FALSE(parse_rate("fast\n").ok());
    // What the kernel never prints, and a number parser would take: no rate.
    CHECK_FALSE(parse_rate("inf Gb/sec (4X EDR)\n").ok());
    CHECK_FALSE(parse_rate("1e3 Gb/sec (4X EDR)\n").ok());
    CHECK_FALSE(parse_rate("-0 Gb/sec (4X EDR)\n").ok());
    CHECK(parse_rate("53.125 Gb/sec (1X HDR)\n").value().gbps == 53.125);
    CHECK_FALSE(parse_rate("x Gb/sec (4X EDR)\n").ok());
    CHECK_FALSE(parse_rate("100 Gb/sec 4X EDR\n").ok());
    CHECK_FALSE(parse_rate("100 Gb/sec (X EDR)\n").ok());
}

TEST_CASE("parse_lid, parse_guid, parse_fw_ver") {
    CHECK(parse_lid("0x1a\n").value() == 26U);
    CHECK_FALSE(parse_lid("26\n").ok());
    CHECK_FALSE(parse_lid("0x10000\n").ok());
    CHECK(parse_guid("0C42:A103:0073:0000\n").value() == "0c42:a103:0073:0000");
    CHECK_FALSE(parse_guid("0c42a10300730000\n").ok());
    CHECK_FALSE(parse_guid("0c42:a103:0073:00000\n").ok());
    CHECK(parse_fw_ver("28.39.1002\n").value() == "28.39.1002");
    CHECK(parse_fw_ver("").gap().message == "empty");
    CHECK_FALSE(parse_fw_ver("28.39 (x)\n").ok());
}

TEST_CASE("parse_gid and is_zero_gid") {
    const auto gid = parse_gid("fe80:0000:0000:0000:0e42:a1ff:fe00:0001\n").value();
    CHECK(gid[0] == 0xfe);
    CHECK(gid[1] == 0x80);
    CHECK(gid[15] == 0x01);
    CHECK_FALSE(is_zero_gid(gid));
    CHECK(is_zero_gid(parse_gid("0000:0000:0000:0000:0000:0000:0000:0000\n").value()));
    CHECK_FALSE(parse_gid("fe80::1\n").ok());
    CHECK_FALSE(parse_gid("fe80:0:0:0:0:0:0:0:0\n").ok());
    CHECK_FALSE(parse_gid("fe80:0:0:0:0:0:0:12345\n").ok());
    CHECK_FALSE(parse_gid("\xff\xfe").ok());
}

TEST_CASE("parse_gid reads the kernel's full form and every other spelling alike") {
    // The kernel's own shape (eight groups of four digits and a newline) is read in one pass;
    // the same GID spelt any other accepted way gives the same bytes.
    const std::string full = "FE80:0000:0000:0000:0E42:A1FF:FE00:0001\n";
    const auto fast = parse_gid(full).value();
    CHECK(fast == parse_gid("  fe80:0:0:0:e42:a1ff:fe00:1 \n").value());
    CHECK(fast == parse_gid("fe80:0000:0000:0000:0e42:a1ff:fe00:0001").value());
    CHECK(fast[8] == 0x0e);
    CHECK(fast[9] == 0x42);
    // The full form's length with a bad digit or separator: the general reading's words.
    const auto bad_digit = parse_gid("fe80:0000:0000:0000:0e42:a1ff:fe00:000g\n");
    REQUIRE_FALSE(bad_digit.ok());
    CHECK(bad_digit.gap().message ==
          "not a GID in IPv6 notation: \"fe80:0000:0000:0000:0e42:a1ff:fe00:000g\"");
    const auto bad_colon = parse_gid("fe80:0000:0000:0000-0e42:a1ff:fe00:0001\n");
    REQUIRE_FALSE(bad_colon.ok());
    CHECK(bad_colon.gap().message.starts_with("not a GID in IPv6 notation: "));
}

}  // namespace rdmi::sysfs
