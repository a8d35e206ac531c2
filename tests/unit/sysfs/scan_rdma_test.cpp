// Tests for the GID table scan (scan_rdma.cpp): each non-zero entry kept with its index, bytes,
// type and netdev, over generated fixture roots and copies of them with odd GID files.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"
#include "sysfs/devices.hpp"
#include "sysfs_fixture.hpp"

namespace rdmi::sysfs {
namespace {

// bf3-host-dpu: mlx5_0's port 1, below PF 0000:03:00.0.
constexpr const char* kPort =
    "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0/infiniband/mlx5_0/ports/1";
constexpr const char* kShown = "/sys/class/infiniband/mlx5_0/ports/1";

// A copy of the bf3-host-dpu root that a test damages.
struct Copy {
    test::TempTree tree;
    std::string dir = tree.host("/r");

    Copy() {
        REQUIRE(test::run_fixture_script("bf3-host-dpu " + dir) == 0);
        tree.chmod("/", 0755);  // mkdtemp's 0700 would stop the unprivileged user at the top
    }
    void write(const std::string& in_port, const std::string& text, unsigned mode = 0644) const {
        tree.write("/r" + std::string(kPort) + "/" + in_port, text, mode);
    }
    [[nodiscard]] RdmaPort port() const {
        const auto fs = RootedFs::open(dir).value();
        return scan_port_of(fs);
    }
    static RdmaPort scan_port_of(const Fs& fs) {
        const auto inv = scan_devices(fs);
        const RdmaDevice* dev = inv.find_rdma_device("mlx5_0");
        REQUIRE(dev != nullptr);
        REQUIRE(dev->ports.size() == 1);
        return dev->ports[0];
    }
};

Gid ipv4_mapped(unsigned a, unsigned b, unsigned c, unsigned d) {
    Gid gid{};
    gid[10] = 0xff;
    gid[11] = 0xff;
    gid[12] = static_cast<std::uint8_t>(a);
    gid[13] = static_cast<std::uint8_t>(b);
    gid[14] = static_cast<std::uint8_t>(c);
    gid[15] = static_cast<std::uint8_t>(d);
    return gid;
}

std::string gid_text(const Gid& gid) {
    std::string out;
    for (std::size_t i = 0; i < gid.size(); i += 2) {
        char group[8];
        std::snprintf(group, sizeof group, "%s%02x%02x", i == 0 ? "" : ":", gid[i], gid[i + 1]);
        out += group;
    }
    return out;
}

std::vector<std::uint32_t> indexes(const RdmaPort& port) {
    std::vector<std::uint32_t> out;
    for (const auto& g : *port.gids.value) out.push_back(g.index);
    return out;
}

}  // namespace

TEST_CASE("scan_rdma: a RoCE port's GIDs are kept with index, bytes, type and netdev") {
    const auto fs = test::sysfs_fixture("bf3-host-dpu");
    const RdmaPort port = Copy::scan_port_of(fs);
    REQUIRE(port.gids.ok());
    CHECK(port.gids.source.ref == std::string(kShown) + "/gids");
    REQUIRE(port.gids.value->size() == port.gid_count.value.value());
    REQUIRE(port.gids.value->size() >= 2);
    for (const auto& g : *port.gids.value) {
        CHECK(g.ndev == "ens1f0np0");
        CHECK(g.type.source.ref ==
              std::string(kShown) + "/gid_attrs/types/" + std::to_string(g.index));
    }
    // The default entries come first: the link-local address as RoCE v1, then as RoCE v2.
    const PortGid& v1 = port.gids.value->at(0);
    const PortGid& v2 = port.gids.value->at(1);
    CHECK(v1.index == 0U);
    CHECK(v2.index == 1U);
    CHECK(v1.gid == v2.gid);
    CHECK(v1.gid[0] == 0xfe);
    CHECK(v1.gid[1] == 0x80);
    CHECK(v1.type.value == "IB/RoCE v1");
    CHECK(v2.type.value == "RoCE v2");
}

TEST_CASE("scan_rdma: InfiniBand GIDs have a type and no netdev") {
    const auto fs = test::sysfs_fixture("cx7-vfs");
    const auto inv = scan_devices(fs);
    const RdmaPort& port = inv.find_rdma_device("mlx5_0")->ports.at(0);
    REQUIRE(port.gids.value->size() == 1);
    const PortGid& g = port.gids.value->front();
    CHECK(g.index == 0U);
    CHECK(g.type.value == "IB/RoCE v1");
    CHECK_FALSE(g.ndev.has_value());
    CHECK(port.gaps.empty());
}

TEST_CASE("scan_rdma: a GID file with garbage is a gap naming it; its neighbours are kept") {
    Copy root;
    // Entries 6 and 7 are unused in the fixture.
    root.write("gids/6", "not-a-gid\n");
    root.write("gid_attrs/types/6", "RoCE v2\n");
    root.write("gids/7", gid_text(ipv4_mapped(192, 0, 2, 7)) + "\n");
    root.write("gid_attrs/types/7", "RoCE v2\n");
    root.write("gid_attrs/ndevs/7", "ens1f0np0\n");
    const RdmaPort port = root.port();
    const auto kept = indexes(port);
    CHECK(std::find(kept.begin(), kept.end(), 6U) == kept.end());
    CHECK(kept.back() == 7U);
    CHECK(port.gid_count.value == kept.size());
    CHECK(port.gids.value->back().gid == ipv4_mapped(192, 0, 2, 7));
    CHECK(port.gids.value->back().type.value == "RoCE v2");
    REQUIRE(port.gaps.size() == 1);
    CHECK(port.gaps[0].reason == GapReason::malformed);
    CHECK(port.gaps[0].message ==
          std::string(kShown) + "/gids/6: not a GID in IPv6 notation: \"not-a-gid\"");
}

TEST_CASE("scan_rdma: an unreadable type file keeps the GID, its type a gap") {
    Copy root;
    root.write("gid_attrs/types/1", "RoCE v2\n", 0000);
    RdmaPort port;
    {
        const test::AsUnprivileged nobody;
        port = root.port();
    }
    REQUIRE(port.gids.ok());
    REQUIRE(port.gids.value->size() >= 2);
    const PortGid& g = port.gids.value->at(1);
    CHECK(g.index == 1U);
    REQUIRE_FALSE(g.type.ok());
    CHECK(g.type.gap->reason == GapReason::permission_denied);
    CHECK(g.type.gap->message == std::string(kShown) + "/gid_attrs/types/1: permission denied");
    CHECK(g.ndev == "ens1f0np0");  // the rest of the entry still reads
    REQUIRE(port.gaps.size() == 1);
    CHECK(port.gaps[0].message == g.type.gap->message);
}

TEST_CASE("scan_rdma: a type file that is a FIFO is a gap, never a hang") {
    Copy root;
    const std::string path = "/r" + std::string(kPort) + "/gid_attrs/types/0";
    std::remove(root.tree.host(path).c_str());
    root.tree.fifo(path);
    const RdmaPort port = root.port();
    const PortGid& g = port.gids.value->at(0);
    REQUIRE_FALSE(g.type.ok());
    CHECK(g.type.gap->reason == GapReason::malformed);
    CHECK(g.type.gap->message ==
          std::string(kShown) + "/gid_attrs/types/0: is a FIFO, not a regular file");
}

TEST_CASE("scan_rdma: a full 255-entry table is kept whole, in index order") {
    Copy root;
    for (unsigned i = 0; i < 255; ++i) {
        const std::string n = std::to_string(i);
        root.write("gids/" + n, gid_text(ipv4_mapped(10, 0, i / 256, i % 256 + 1)) + "\n");
        root.write("gid_attrs/types/" + n, i % 2 == 0 ? "IB/RoCE v1\n" : "RoCE v2\n");
        root.write("gid_attrs/ndevs/" + n, "ens1f0np0\n");
    }
    const RdmaPort port = root.port();
    CHECK(port.gaps.empty());
    REQUIRE(port.gids.value->size() == 255);
    CHECK(port.gid_count.value == 255U);
    for (std::uint32_t i = 0; i < 255; ++i) {
        const PortGid& g = port.gids.value->at(i);
        CHECK(g.index == i);  // "10" after "9", not after "1"
        CHECK(g.gid == ipv4_mapped(10, 0, 0, i + 1));
        CHECK(g.type.value == (i % 2 == 0 ? "IB/RoCE v1" : "RoCE v2"));
    }
}

TEST_CASE("scan_rdma: an unreadable gids directory leaves the GID list a gap") {
    const auto fs = test::sysfs_fixture("malformed");
    RdmaPort port;
    {
        const test::AsUnprivileged nobody;
        port = Copy::scan_port_of(fs);
    }
    REQUIRE_FALSE(port.gids.ok());
    CHECK(port.gids.gap->reason == GapReason::permission_denied);
    CHECK(port.gids.gap->message == std::string(kShown) + "/gids: permission denied");
}

}  // namespace rdmi::sysfs
