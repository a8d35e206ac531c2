// Tests for the netdev attribute parsers and mlx5 port names.
#include "sysfs/net_attrs.hpp"

#include <doctest/doctest.h>

namespace rdmi::sysfs {

TEST_CASE("parse_mtu, parse_operstate, parse_hw_address") {
    CHECK(parse_mtu("9000\n").value() == 9000U);
    CHECK(parse_mtu("abc\n").gap().message == "not a decimal number: \"abc\"");
    CHECK(parse_operstate("lowerlayerdown\n").value() == "lowerlayerdown");
    CHECK(parse_operstate("UP\n").gap().message == "unknown operstate \"UP\"");
    CHECK(parse_hw_address("0C:42:A1:00:00:01\n").value() == "0c:42:a1:00:00:01");
    CHECK(parse_hw_address("00:00:10:49:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:a0:00:00\n").ok());
    CHECK_FALSE(parse_hw_address("0c:42:a1:00:00:1\n").ok());
    CHECK_FALSE(parse_hw_address("0c-42-a1-00-00-01\n").ok());
}

TEST_CASE("parse_port_name decodes mlx5 representor names") {
    auto hpf = parse_port_name("pf0hpf");
    REQUIRE(hpf);
    CHECK(hpf->flavour == PortFlavour::pcipf);
    CHECK(hpf->pf == 0U);
    auto vf = parse_port_name("pf1vf12");
    REQUIRE(vf);
    CHECK(vf->flavour == PortFlavour::pcivf);
    CHECK(vf->pf == 1U);
    CHECK(vf->index == 12U);
    auto sf = parse_port_name("c1pf0sf88");
    REQUIRE(sf);
    CHECK(sf->flavour == PortFlavour::pcisf);
    CHECK(sf->controller == 1U);
    CHECK(sf->index == 88U);
    auto uplink = parse_port_name("p1");
    REQUIRE(uplink);
    CHECK(uplink->flavour == PortFlavour::physical);
    CHECK(uplink->pf == 1U);
    CHECK(to_string(PortFlavour::pcisf) == "pcisf");
    CHECK_FALSE(parse_port_name("pf0"));
    CHECK_FALSE(parse_port_name("pf0vf"));
    CHECK_FALSE(parse_port_name("pf0vf1x"));
    CHECK_FALSE(parse_port_name("eth0"));
    CHECK_FALSE(parse_port_name("c1p0"));
    CHECK_FALSE(parse_port_name(""));
}

}  // namespace rdmi::sysfs
