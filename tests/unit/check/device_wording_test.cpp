// The words the device checks give a reader, over generated sysfs roots: which devices have a
// DPA comes from the product table's one DPA column (every wording names exactly its "yes"
// products), and a port that is not ACTIVE gets the fix of its own cause (logical state vs.
// physical link).
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <string>

#include "check/check_catalog.hpp"
#include "check/evaluate.hpp"
#include "host/platform.hpp"
#include "model/registry.hpp"
#include "probes/devices/devices.hpp"
#include "support/memory_fs.hpp"
#include "sysfs/devices.hpp"
#include "sysfs/net_attrs.hpp"
#include "sysfs/pci_ids.hpp"
#include "unit/probes/devices/devices_fixture.hpp"

namespace rdmi {
namespace {

DevicesFacts facts_of(const char* scenario) {
    return test::devices_facts_of(scenario);
}

const Check& find(const std::vector<Check>& checks, std::string_view id) {
    for (const auto& c : checks)
        if (c.id == id) return c;
    FAIL("no check " << id);
    return checks.front();
}

// Every product a text names ("ConnectX-7/8/9" names three), as "Family-N".
std::set<std::string> products_named(const std::string& text) {
    std::set<std::string> out;
    static const std::regex kName(R"((BlueField|ConnectX)-([0-9]+(?:/[0-9]+)*))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kName);
         it != std::sregex_iterator(); ++it) {
        const std::string family = (*it)[1];
        std::string generations = (*it)[2];
        std::size_t from = 0;
        for (auto slash = generations.find('/');; slash = generations.find('/', from)) {
            out.insert(family + "-" + generations.substr(from, slash - from));
            if (slash == std::string::npos) break;
            from = slash + 1;
        }
    }
    return out;
}

// The products whose table rows say DPA "yes" (PFs; a VF's DPA is its PF's), read from the
// table by device id: every id a PCI function can carry.
std::set<std::string> dpa_column() {
    std::set<std::string> out;
    for (std::uint32_t id = 0; id <= 0xffff; ++id) {
        const auto row = sysfs::find_product(id);
        if (!row || row->virtual_function || row->dpa != sysfs::DpaSupport::yes) continue;
        const std::string name(row->name.substr(0, row->name.find(' ')));
        out.insert(name);
    }
    return out;
}

// A wording about which devices have a DPA names exactly the column's products: none it does
// not mark, none it marks left out, and no open end ("or later", "or newer", "+").
void names_the_column(const std::string& text) {
    CAPTURE(text);
    CHECK(products_named(text) == dpa_column());
    CHECK(text.find("or later") == std::string::npos);
    CHECK(text.find("or newer") == std::string::npos);
}

}  // namespace

TEST_CASE("which devices have a DPA: every wording is the table's DPA column") {
    REQUIRE(dpa_column() ==
            std::set<std::string>{"BlueField-3", "ConnectX-7", "ConnectX-8", "ConnectX-9"});
    CHECK(sysfs::dpa_products_text() == "BlueField-3 or ConnectX-7/8/9");
    names_the_column(sysfs::dpa_products_text());
    // check --explain / --list-checks / docs/checks.md: the catalog's fixes.
    for (const char* id : {"dpa", "rdmi-dpa-device"}) {
        const FindingInfo* info = find_check(id);
        REQUIRE(info != nullptr);
        names_the_column(std::string(info->fix));
    }
    // The report's verdict: no NVIDIA device at all, and no DPA-capable one.
    names_the_column(find(device_checks(facts_of("empty"), false), "rdmi-dpa-device").remediation);
    const Check cx6 = find(device_checks(facts_of("cx6dx"), false), "rdmi-dpa-device");
    // The message names the devices found too; its DPA clause names the column.
    REQUIRE(cx6.message.find("a DPA needs") != std::string::npos);
    names_the_column(cx6.message.substr(cx6.message.find("a DPA needs")));
    names_the_column(cx6.remediation);
    // The gate's --require-dpa: no device, and a device without a DPA.
    gate::Policy policy;
    policy.require_dpa = true;
    names_the_column(find(gate::devices_gate(policy, facts_of("empty"), false), "dpa").remediation);
    names_the_column(find(gate::devices_gate(policy, facts_of("cx6dx"), false), "dpa").remediation);
}

TEST_CASE("a port physically up but logically DOWN: the subnet manager or the netdev, no cable") {
    const DevicesFacts facts = facts_of("logical-down");
    gate::Policy policy;
    policy.require_port_active = true;
    const Check port = find(gate::devices_gate(policy, facts, false), "port-active");
    CHECK(port.status == Status::fail);
    // InfiniBand: the subnet manager configures the port; Ethernet: the netdev, named.
    CHECK(port.remediation ==
          "mlx5_0 port 1 is physically up (LinkUp) but DOWN: no subnet manager has configured "
          "it; run sminfo to find the fabric's subnet manager, or start one (opensm) on a node "
          "of this fabric; mlx5_1 port 1 is DOWN though physically up (LinkUp): its netdev "
          "ens1f1np1 is administratively down; ip link set ens1f1np1 up");
    CHECK(port.remediation.find("cable") == std::string::npos);
    // --require-dpa --require-port-active judges the same ports, with the same causes.
    policy.require_dpa = true;
    const Check both = find(gate::devices_gate(policy, facts, false), "port-active");
    CHECK(both.remediation.find("ip link set ens1f1np1 up") != std::string::npos);
    CHECK(both.remediation.find("cable") == std::string::npos);
    // The report's verdict gives the same step.
    const Check verdict = find(device_checks(facts, false), "rdmi-dpa-device");
    CHECK(verdict.status == Status::fail);
    CHECK(verdict.remediation == port.remediation);
}

TEST_CASE("an Ethernet port DOWN because its netdev is administratively down: ip link, no cable") {
    // mlx5 reports a RoCE port DOWN and Disabled unless its netdev runs with carrier: the
    // netdev's flags (IFF_UP clear) say the administrative state is the cause.
    const DevicesFacts facts = facts_of("split-devices");
    gate::Policy policy;
    policy.require_port_active = true;
    policy.device = "0000:03:00.0";
    const Check port = find(gate::devices_gate(policy, facts, false), "port-active");
    CHECK(port.remediation ==
          "mlx5_0 port 1 is DOWN: its netdev ens1f0np0 is administratively down; ip link set "
          "ens1f0np0 up");
}

TEST_CASE("a netdev whose flags do not read: the Ethernet fix names both causes, claims neither") {
    CHECK(*sysfs::parse_netdev_flags("0x1003\n") == 0x1003U);
    for (const char* bad : {"", "zz", "0x1ffffffff", "-1"}) {
        CAPTURE(bad);
        CHECK_FALSE(sysfs::parse_netdev_flags(bad).ok());
    }
    DevicesFacts facts = facts_of("split-devices");
    for (auto& netdev : facts.inventory.netdevs) {
        netdev.flags = Sourced<std::uint32_t>::missing({GapReason::malformed, "flags: junk"},
                                                       {"sysfs", "flags"});
    }
    gate::Policy policy;
    policy.require_port_active = true;
    policy.device = "0000:03:00.0";
    const Check port = find(gate::devices_gate(policy, facts, false), "port-active");
    CHECK(port.remediation ==
          "mlx5_0 port 1 is DOWN: ip link set ens1f0np0 up if it is administratively down; "
          "otherwise connect the cable and check the link (mlxlink -d 0000:03:00.0, ibstat "
          "mlx5_0 1)");
}

TEST_CASE("a port physically down keeps the cable and the link check, naming the function") {
    const DevicesFacts facts = facts_of("cx6dx");
    gate::Policy policy;
    policy.require_port_active = true;
    const Check port = find(gate::devices_gate(policy, facts, false), "port-active");
    CHECK(port.remediation ==
          "mlx5_0 port 1 has no physical link (Disabled): connect the cable and check the link "
          "(mlxlink -d 0000:3b:00.0, ibstat mlx5_0 1); mlx5_1 port 1 has no physical link "
          "(Polling): connect the cable and check the link (mlxlink -d 0000:3b:00.1, ibstat "
          "mlx5_1 1)");
}

TEST_CASE("names from the tree reach the port fix's commands as single shell words") {
    // A bundle replayed with --root names its own netdevs and rdma devices, and its GID table
    // names a netdev in a file: a fix is pasted into a shell, so none of them may run anything.
    test::MemoryFs fs = test::sysfs_fixture_in_memory("logical-down");
    const std::string pf0 = "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0";
    const std::string pf1 = "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.1";
    fs.rename(pf0 + "/infiniband/mlx5_0", pf0 + "/infiniband/mlx5_$(id)");
    fs.remove("/sys/class/infiniband/mlx5_0");
    fs.symlink("../../devices/pci0000:00/0000:00:01.0/0000:03:00.0/infiniband/mlx5_$(id)",
               "/sys/class/infiniband/mlx5_$(id)");
    // mlx5_0's port loses its physical link; mlx5_1's GID table names a netdev.
    fs.write(pf0 + "/infiniband/mlx5_$(id)/ports/1/phys_state", "3: Disabled\n");
    const std::string port = pf1 + "/infiniband/mlx5_1/ports/1";
    fs.write(port + "/gids/0", "fe80:0000:0000:0000:0e42:a1ff:fe00:0001\n");
    fs.write(port + "/gid_attrs/types/0", "RoCE v2\n");
    fs.write(port + "/gid_attrs/ndevs/0", "a;reboot\n");
    DevicesFacts facts;
    facts.inventory = sysfs::scan_devices(fs);
    facts.platform = host::scan_platform(fs);
    facts.host = host::classify_host(facts.platform, facts.inventory);
    facts.summary = summarize_devices(facts.inventory, facts.verbs, facts.doca);
    gate::Policy policy;
    policy.require_port_active = true;
    const Check checked = find(gate::devices_gate(policy, facts, false), "port-active");
    CAPTURE(checked.remediation);
    CHECK(checked.remediation.find("ibstat 'mlx5_$(id)' 1") != std::string::npos);
    CHECK(checked.remediation.find("ip link set 'a;reboot' up") != std::string::npos);
    CHECK(checked.remediation.find("ibstat mlx5_$(id)") == std::string::npos);
    CHECK(checked.remediation.find("set a;reboot") == std::string::npos);
}

}  // namespace rdmi
