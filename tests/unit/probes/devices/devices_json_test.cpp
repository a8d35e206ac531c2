// Tests for the devices section of the report (probes/devices/devices_json): its shape over real
// sysfs fixture trees, each sysfs value with its provenance and a gap only where the read
// failed, and the row that puts it in the report.
#include "probes/devices/devices_json.hpp"

#include <doctest/doctest.h>

#include <string>

#include "model/registry.hpp"
#include "unit/probes/devices/devices_fixture.hpp"

namespace rdmi {
namespace {

const json::Json& member_named(const json::Json& list, const char* key, const std::string& name) {
    for (const auto& item : list) {
        if (item.at(key) == name) return item;
    }
    FAIL("no element with " << key << " = " << name);
    return list.front();
}

}  // namespace

TEST_CASE("devices section: the members in order, one summary row per function with its ports") {
    const json::Json section = json::devices(test::devices_facts_of("split-devices"));
    std::string members;
    for (const auto& [name, value] : section.items()) members += name + " ";
    CHECK(members == "summary functions rdma_devices netdevs gaps platform host verbs doca ");

    // Two BlueField-3 PFs with their ports down, a ConnectX-6 Dx with its port active.
    const auto& summary = section.at("summary");
    REQUIRE(summary.size() == 3);
    const auto& down = member_named(summary, "function", "0000:03:00.0");
    CHECK(down.at("kind") == "PF");
    CHECK(down.at("port_state") == "DOWN");
    CHECK(down.at("port_active") == false);
    CHECK(down.at("rdma_devices") == json::Json::array({"mlx5_0"}));
    CHECK(down.at("netdevs") == json::Json::array({"ens1f0np0"}));
    const auto& active = member_named(summary, "function", "0000:3b:00.0");
    CHECK(active.at("port_state") == "ACTIVE");
    CHECK(active.at("port_active") == true);
    // No verbs query was made: the summary says so with null, not with a guess.
    CHECK(active.at("verbs_status").is_null());
}

TEST_CASE("devices section: sysfs values carry their file, ids in hex, a gap only on failure") {
    const json::Json section = json::devices(test::devices_facts_of("split-devices"));
    const auto& function = member_named(section.at("functions"), "name", "0000:3b:00.0");
    CHECK(function.at("vendor").at("value") == "0x15b3");
    CHECK(function.at("device").at("value") == "0x101d");
    CHECK(function.at("vendor").at("source").at("kind") == "sysfs");
    CHECK(function.at("vendor").at("source").at("ref").get<std::string>().ends_with("/vendor"));
    CHECK_FALSE(function.at("vendor").contains("gap"));

    const auto& device = member_named(section.at("rdma_devices"), "name", "mlx5_2");
    const auto& port = device.at("ports").at(0);
    CHECK(port.at("number") == 1);
    CHECK(port.at("state").at("value") == json::Json({{"number", 4}, {"name", "ACTIVE"}}));
    CHECK(port.at("link_layer").at("value") == "Ethernet");

    // A port state sysfs cannot parse: no value, and the gap says why, beside its file.
    const json::Json broken = json::devices(test::devices_facts_of("malformed"));
    const auto& bad_port =
        member_named(broken.at("rdma_devices"), "name", "mlx5_0").at("ports").at(0);
    CHECK(bad_port.at("state").at("value").is_null());
    REQUIRE(bad_port.at("state").contains("gap"));
    CHECK(bad_port.at("state").at("source").at("ref").get<std::string>().ends_with("/state"));
}

TEST_CASE("devices section: its row writes it, null when the devices probe did not run") {
    const ProbeRow& row = probe_row(ProbeId::devices);
    REQUIRE(static_cast<bool>(row.json));
    Facts facts;
    const auto absent = row.json(facts);
    REQUIRE(absent.has_value());
    CHECK(absent->is_null());

    facts.devices = test::devices_facts_of("split-devices");
    const auto present = row.json(facts);
    REQUIRE(present.has_value());
    CHECK(*present == json::devices(*facts.devices));
}

}  // namespace rdmi
