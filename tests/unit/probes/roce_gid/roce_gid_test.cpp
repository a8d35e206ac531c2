// Tests for the roce-gid probe over generated sysfs roots (and copies of them with changed GID
// files): which ports it judges, its verdicts, its fix and its report section.
#include "probes/roce_gid/roce_gid.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"
#include "sysfs/devices.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi {
namespace {

RoceGidFacts probe_fixture(const char* scenario) {
    const auto fs = test::sysfs_fixture(scenario);
    return probe_roce_gid(sysfs::scan_devices(fs));
}

const RoceGidPort& port_of(const RoceGidFacts& facts, const std::string& device) {
    for (const auto& port : facts.ports) {
        if (port.rdma_device == device) return port;
    }
    FAIL("no port of " << device);
    return facts.ports.front();
}

sysfs::Gid gid_of(const char* text) {
    auto gid = sysfs::parse_gid(text);
    REQUIRE(gid.ok());
    return *gid;
}

// A copy of bf3-host-dpu whose mlx5_0 port 1 GID files a test rewrites.
struct Copy {
    static constexpr const char* kPort =
        "/r/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0/infiniband/mlx5_0/ports/1/";
    test::TempTree tree;
    std::string dir = tree.host("/r");

    Copy() {
        REQUIRE(test::run_fixture_script("bf3-host-dpu " + dir) == 0);
        tree.chmod("/", 0755);  // mkdtemp's 0700 would stop the unprivileged user at the top
    }
    void write(const std::string& in_port, const std::string& text, unsigned mode = 0644) const {
        tree.write(std::string(kPort) + in_port, text, mode);
    }
    [[nodiscard]] RoceGidFacts probe() const {
        const auto fs = RootedFs::open(dir).value();
        return probe_roce_gid(sysfs::scan_devices(fs));
    }
    /// As `nobody`, for whom the files a case made unreadable really are (root reads all).
    [[nodiscard]] RoceGidFacts probe_unprivileged() const {
        const test::AsUnprivileged nobody;
        return probe();
    }
};

}  // namespace

TEST_CASE("roce-gid: which GIDs carry an IP address") {
    CHECK(gid_carries_ip(gid_of("0000:0000:0000:0000:0000:ffff:c000:020a")));  // 192.0.2.10
    CHECK(gid_carries_ip(gid_of("2001:0db8:0000:0001:0000:0000:0000:0010")));
    CHECK(gid_carries_ip(gid_of("fec0:0000:0000:0000:0000:0000:0000:0001")));  // not fe80::/10
    CHECK_FALSE(gid_carries_ip(gid_of("fe80:0000:0000:0000:0e42:a1ff:fe00:0000")));
    CHECK_FALSE(gid_carries_ip(gid_of("febf:0000:0000:0000:0000:0000:0000:0001")));  // fe80::/10
    CHECK_FALSE(gid_carries_ip(gid_of("ff02:0000:0000:0000:0000:0000:0000:0001")));  // multicast
    CHECK_FALSE(gid_carries_ip(gid_of("0000:0000:0000:0000:0000:ffff:0000:0000")));  // 0.0.0.0
    CHECK_FALSE(gid_carries_ip(gid_of("0000:0000:0000:0000:0000:0000:0000:0000")));
    CHECK(gid_address(gid_of("0000:0000:0000:0000:0000:ffff:c000:020a")) == "::ffff:192.0.2.10");
    CHECK(gid_address(gid_of("2001:0db8:0000:0001:0000:0000:0000:0010")) == "2001:db8:0:1::10");
}

TEST_CASE("roce-gid: ports with an IPv4-mapped or a global IPv6 RoCE v2 GID pass") {
    const auto facts = probe_fixture("bf3-host-dpu");
    REQUIRE(facts.check.has_value());
    CHECK(facts.check->id.str() == "roce-gid");
    CHECK(facts.check->status == Status::pass);
    CHECK(facts.check->remediation.empty());
    const RoceGidPort& v4 = port_of(facts, "mlx5_0");
    CHECK(v4.status == Status::pass);
    CHECK(v4.function == "0000:03:00.0");
    CHECK(v4.netdevs == std::vector<std::string>{"ens1f0np0"});
    REQUIRE(v4.ip_gids.size() == 1);
    CHECK(v4.ip_gids[0].index == 3U);  // after link-local v1, v2 and the address's v1 entry
    CHECK(v4.ip_gids[0].address == "::ffff:192.0.2.10");
    const RoceGidPort& v6 = port_of(facts, "mlx5_1");
    CHECK(v6.status == Status::pass);
    REQUIRE(v6.ip_gids.size() == 1);
    CHECK(v6.ip_gids[0].address == "2001:db8:0:1::10");
    CHECK(facts.check->message ==
          "mlx5_0 port 1 (netdev ens1f0np0): RoCE v2 GID ::ffff:192.0.2.10 (index 3); "
          "mlx5_1 port 1 (netdev ens1f1np1): RoCE v2 GID 2001:db8:0:1::10 (index 3)");
}

TEST_CASE("roce-gid: a port with only link-local GIDs fails; its fix names the netdev") {
    const auto facts = probe_fixture("roce-ports");
    REQUIRE(facts.check.has_value());
    CHECK(facts.check->status == Status::fail);
    const RoceGidPort& bare = port_of(facts, "mlx5_0");
    CHECK(bare.status == Status::fail);
    CHECK(bare.ip_gids.empty());
    CHECK(bare.message ==
          "mlx5_0 port 1 (netdev ens3f0np0): no RoCE v2 GID with an IP address (only "
          "fe80::e42:a1ff:fe00:70)");
    // Only the failing port is named; the passing sibling is not.
    CHECK(facts.check->message == bare.message);
    CHECK(facts.check->remediation ==
          "Give ens3f0np0 an IP address and bring it up (ip addr add <address>/<prefix> dev "
          "ens3f0np0; ip link set ens3f0np0 up), then rdma link show mlx5_0/1 names it and the "
          "kernel adds the RoCE v2 GID.");
    bool gids_cited = false;
    for (const auto& source : facts.check->sources) {
        gids_cited = gids_cited || source.ref == "/sys/class/infiniband/mlx5_0/ports/1/gids";
    }
    CHECK(gids_cited);

    const RoceGidPort& good = port_of(facts, "mlx5_1");
    CHECK(good.status == Status::pass);
    REQUIRE(good.ip_gids.size() == 2);
    CHECK(good.ip_gids[0].address == "::ffff:192.0.2.71");
    CHECK(good.ip_gids[1].address == "2001:db8:0:7::71");
}

TEST_CASE("roce-gid: InfiniBand ports and ports without a netdev are not applicable") {
    const auto facts = probe_fixture("roce-ports");
    const RoceGidPort& vf = port_of(facts, "mlx5_2");
    CHECK_FALSE(vf.status.has_value());
    CHECK(vf.netdevs.empty());
    CHECK(vf.message == "mlx5_2 port 1: no netdev (an IP address has nowhere to go)");
    const RoceGidPort& ib = port_of(facts, "mlx5_3");
    CHECK_FALSE(ib.status.has_value());
    CHECK(ib.message == "mlx5_3 port 1: InfiniBand, not RoCE");

    // A tree with only InfiniBand ports has no check at all.
    const auto ib_only = probe_fixture("cx7-vfs");
    CHECK(ib_only.ports.size() == 5);
    CHECK_FALSE(ib_only.check.has_value());
    // Nor does one whose RoCE ports are all down.
    CHECK_FALSE(probe_fixture("cx6dx").check.has_value());
    CHECK_FALSE(probe_fixture("empty").check.has_value());
}

TEST_CASE("roce-gid: an address only as a RoCE v1 GID does not count") {
    Copy root;
    // Keep the IPv4 address's v1 entry (index 2), make its v2 entry (index 3) unused.
    root.write("gids/3", "0000:0000:0000:0000:0000:0000:0000:0000\n");
    const auto facts = root.probe();
    const RoceGidPort& port = port_of(facts, "mlx5_0");
    CHECK(port.status == Status::fail);
    CHECK(port.message ==
          "mlx5_0 port 1 (netdev ens1f0np0): no RoCE v2 GID with an IP address (only "
          "fe80::e42:a1ff:fe00:0, ::ffff:192.0.2.10)");
}

TEST_CASE("roce-gid: an IP GID whose type does not read is not judged") {
    Copy root;
    root.write("gid_attrs/types/3", "RoCE v2\n", 0000);
    const RoceGidFacts facts = root.probe_unprivileged();
    const RoceGidPort& port = port_of(facts, "mlx5_0");
    CHECK(port.status == Status::skip);
    CHECK(port.message ==
          "mlx5_0 port 1 (netdev ens1f0np0): a GID with an IP address has a "
          "type that could not be read");
    REQUIRE(facts.check.has_value());
    CHECK(facts.check->status == Status::skip);
    CHECK(facts.check->message == "not judged: " + port.message);
    CHECK(facts.check->remediation.empty());
}

TEST_CASE("roce-gid: an unreadable GID table is not judged, never passed") {
    Copy root;
    root.tree.chmod(std::string(Copy::kPort) + "gids", 0000);
    const RoceGidFacts facts = root.probe_unprivileged();
    const RoceGidPort& port = port_of(facts, "mlx5_0");
    CHECK(port.status == Status::skip);
    CHECK(port.message ==
          "mlx5_0 port 1 (netdev ens1f0np0): the GID table could not be read: "
          "/sys/class/infiniband/mlx5_0/ports/1/gids: permission denied");
    CHECK(facts.check->status == Status::skip);
}

// A gids/ entry that does not read may be the very RoCE v2 GID the verdict is about: the port
// is not judged, never failed with a fix that tells an operator to add an address it has.
TEST_CASE("roce-gid: a GID entry that does not read leaves the port not judged, never failed") {
    Copy root;
    // The IPv4 address's v2 entry (index 3) is a FIFO: nothing can tell what it holds.
    const std::string entry = root.tree.host(std::string(Copy::kPort) + "gids/3");
    REQUIRE(::unlink(entry.c_str()) == 0);
    REQUIRE(::mkfifo(entry.c_str(), 0644) == 0);
    const auto facts = root.probe();
    const RoceGidPort& port = port_of(facts, "mlx5_0");
    CHECK(port.status == Status::skip);
    CHECK(port.message ==
          "mlx5_0 port 1 (netdev ens1f0np0): 1 GID entry could not be read "
          "(/sys/class/infiniband/mlx5_0/ports/1/gids/3: is a FIFO, not a regular file)");
    REQUIRE(facts.check.has_value());
    CHECK(facts.check->status == Status::skip);
    CHECK(facts.check->remediation.empty());
}

// A table of 40 distinct link-local GIDs: the verdict names a few, and says how many more (it
// listed each, and deduplicated them by a linear search: 100,000 entries took 8 s and wrote a
// 1.6 MB message).
TEST_CASE("roce-gid: a failing port's message names at most 8 of the GIDs it has") {
    Copy root;
    for (int i = 0; i < 40; ++i) {
        char text[64];
        std::snprintf(text, sizeof text, "fe80:0000:0000:0000:0000:0000:0000:%04x\n", i + 1);
        const std::string index = std::to_string(100 + i);
        root.write("gids/" + index, text);
        root.write("gid_attrs/types/" + index, "RoCE v2\n");
        root.write("gid_attrs/ndevs/" + index, "ens1f0np0\n");
    }
    for (const char* ip : {"gids/2", "gids/3"})
        root.write(ip, "0000:0000:0000:0000:0000:0000:0000:0000\n");
    const auto facts = root.probe();
    const RoceGidPort& port = port_of(facts, "mlx5_0");
    CHECK(port.status == Status::fail);
    CHECK(port.message ==
          "mlx5_0 port 1 (netdev ens1f0np0): no RoCE v2 GID with an IP address (only "
          "fe80::e42:a1ff:fe00:0, fe80::1, fe80::2, fe80::3, fe80::4, fe80::5, fe80::6, fe80::7, "
          "and 33 more)");
}

TEST_CASE("roce-gid: the report section lists every port with its verdict") {
    const auto facts = probe_fixture("roce-ports");
    const auto section = roce_gid_json(facts);
    const auto& ports = section.at("ports");
    REQUIRE(ports.size() == 4);
    CHECK(ports[0].at("rdma_device") == "mlx5_0");
    CHECK(ports[0].at("status") == "fail");
    CHECK(ports[0].at("netdevs") == json::Json::array({"ens3f0np0"}));
    CHECK(ports[1].at("status") == "pass");
    CHECK(ports[1].at("ip_gids")[0].at("address") == "::ffff:192.0.2.71");
    CHECK(ports[1].at("ip_gids")[0].at("index") == 3);
    CHECK(ports[2].at("status") == "not_applicable");
    CHECK(ports[2].at("function") == "0000:17:00.2");
    CHECK(ports[3].at("status") == "not_applicable");
}

}  // namespace rdmi
