// Tests for the devices probe's join and checks over the sysfs fixture roots.
#include <doctest/doctest.h>

#include <tuple>
#include <utility>

#include "host/platform.hpp"
#include "probes/devices/devices.hpp"
#include "sysfs/devices.hpp"
#include "unit/probes/devices/devices_fixture.hpp"

namespace rdmi {
namespace {

DevicesFacts facts_of(const char* scenario) {
    return test::devices_facts_of(scenario);
}

const Check& find(const std::vector<Check>& checks, const char* id) {
    for (const auto& c : checks)
        if (c.id == id) return c;
    FAIL("no check " << id);
    return checks.front();
}

}  // namespace

TEST_CASE("bf3 host: DPA possible on both PFs; DOCA's answer replaces the inference") {
    auto facts = facts_of("bf3-host-dpu");
    REQUIRE(facts.summary.size() == 2);  // the rshim function is left out
    CHECK(facts.summary[0].dpa.source.kind == "derived");
    CHECK(find(device_checks(facts, false), "rdmi-dpa-device").status == Status::pass);

    DocaCapsFacts doca;
    DocaDevice d;
    d.pci_address = "0000:03:00.0";
    d.dpa = false;
    doca.devices.push_back(d);
    auto joined = summarize_devices(facts.inventory, facts.verbs, doca);
    CHECK(joined[0].dpa.source.ref == "doca_dpa_cap_is_supported");
    CHECK(joined[0].dpa.value->support == sysfs::DpaSupport::no);
    CHECK(joined[1].dpa.source.kind == "derived");
}

TEST_CASE("verdict reasons: no device, no DPA, port down, no driver") {
    auto empty = facts_of("empty");
    auto check = find(device_checks(empty, false), "rdmi-dpa-device");
    CHECK(check.status == Status::fail);
    CHECK(check.message.find("no NVIDIA networking device") != std::string::npos);
    CHECK(find(device_checks(empty, false), "driver-mlx5-core").status == Status::info);

    auto cx6 = facts_of("cx6dx");
    CHECK(find(device_checks(cx6, false), "rdmi-dpa-device").message.find("no DPA-capable") !=
          std::string::npos);

    auto down = facts_of("bf3-host-dpu");
    for (auto& row : down.summary) {
        row.port_active = false;
        row.port_state = "DOWN";
    }
    CHECK(find(device_checks(down, false), "rdmi-dpa-device").message.find("port DOWN") !=
          std::string::npos);

    auto nodriver = facts_of("bf3-host-dpu");
    for (auto& fn : nodriver.inventory.functions)
        fn.driver =
            Sourced<std::string>::missing({GapReason::not_found, "no driver"}, {"sysfs", "driver"});
    CHECK(find(device_checks(nodriver, false), "rdmi-dpa-device").message.find("no driver") !=
          std::string::npos);

    DevicesFacts bare;
    bare.pci_bus_present = false;
    CHECK(find(device_checks(bare, false), "rdmi-dpa-device").status == Status::info);
}

TEST_CASE("verbs-devices explains an empty list: no kernel device vs. no provider") {
    auto empty = facts_of("empty");
    empty.verbs.library = Sourced<std::string>::of("/lib/libibverbs.so.1", {"file", "x"});
    auto check = find(device_checks(empty, true), "verbs-devices");
    CHECK(check.status == Status::info);
    CHECK(check.message.find("the kernel has no RDMA device") != std::string::npos);

    auto cx7 = facts_of("cx7-vfs");
    cx7.verbs.library = empty.verbs.library;
    auto missing = find(device_checks(cx7, true), "verbs-devices");
    CHECK(missing.status == Status::fail);
    CHECK(missing.message.find("no provider") != std::string::npos);
}

TEST_CASE("libibverbs' and DOCA's device lists: not consulted, unavailable (skip), hung (fail)") {
    auto facts = facts_of("cx7-vfs");
    facts.verbs.library = Sourced<std::string>::of("/lib/libibverbs.so.1", {"file", "x"});
    const auto both = [&](bool live) {
        const auto checks = device_checks(facts, live);
        return std::pair{find(checks, "verbs-devices"), find(checks, "doca-devices")};
    };

    auto [verbs, doca] = both(false);
    CHECK(verbs.status == Status::info);
    CHECK(verbs.message == "libibverbs not consulted (not the live system)");
    CHECK(doca.status == Status::info);
    CHECK(doca.message == "DOCA libraries not consulted (not the live system)");

    facts.verbs.gap = Gap{GapReason::error, "ibv_get_device_list: EACCES"};
    facts.doca.gap = Gap{GapReason::not_installed, "libdoca_common.so.2 not found"};
    std::tie(verbs, doca) = both(true);
    CHECK(verbs.status == Status::skip);
    CHECK(verbs.message == "libibverbs could not list devices: ibv_get_device_list: EACCES");
    CHECK(doca.status == Status::skip);
    CHECK(doca.message == "DOCA device list not available: libdoca_common.so.2 not found");

    facts.verbs.gap = Gap{GapReason::timeout, "no answer in 10 s"};
    facts.doca.gap = Gap{GapReason::timeout, "no answer in 10 s"};
    std::tie(verbs, doca) = both(true);
    CHECK(verbs.status == Status::fail);
    CHECK(verbs.message == "libibverbs could not list devices: no answer in 10 s");
    CHECK(doca.status == Status::fail);
    CHECK(doca.message == "DOCA device list not available: no answer in 10 s");
}

}  // namespace rdmi
