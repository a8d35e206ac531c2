// Tests for the live GID tables: a live scan leaves them pending, the verbs worker's
// ibv_query_gid_table answer fills them (sysfs where it has none), and a replayed bundle of a
// live run fills them the same way from the captured answers.
#include "probes/verbs/gid_tables.hpp"

#include <doctest/doctest.h>
#include <net/if.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <string>

#include "model/registry.hpp"
#include "os/env.hpp"
#include "os/live_answers.hpp"
#include "os/rooted_fs.hpp"
#include "probes/roce_gid/roce_gid.hpp"
#include "support/temp_tree.hpp"
#include "sysfs/devices.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

constexpr const char* kPort = "/sys/class/infiniband/mlx5_1/ports/1/";
constexpr const char* kZero = "0000:0000:0000:0000:0000:0000:0000:0000\n";

std::string fixtures(const std::string& in) {
    return std::string(RDMI_TEST_FIXTURES_DIR) + in;
}

spdlog::logger& quiet() {
    static spdlog::logger logger("gid-tables-test",
                                 std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

// mlx5_1 port 1 as sysfs shows it: ACTIVE RoCE, and a GID table that differs from the fixture
// library's (its IP GID at index 5, on netdev sysfs0), so that a verdict tells which was read.
void write_sysfs(const test::TempTree& tree) {
    const std::string port = kPort;
    tree.write(port + "state", "4: ACTIVE\n");
    tree.write(port + "phys_state", "5: LinkUp\n");
    tree.write(port + "link_layer", "Ethernet\n");
    tree.write(port + "rate", "100 Gb/sec (4X EDR)\n");
    tree.write(port + "lid", "0x0\n");
    for (int i = 0; i < 8; ++i) {
        const std::string n = std::to_string(i);
        tree.write(port + "gids/" + n,
                   i == 5 ? "0000:0000:0000:0000:0000:ffff:c000:0263\n" : kZero);
    }
    tree.write(port + "gid_attrs/types/5", "RoCE v2\n");
    tree.write(port + "gid_attrs/ndevs/5", "sysfs0\n");
}

std::string netdev_of_ifindex_1() {
    char name[IF_NAMESIZE] = {};
    return ::if_indextoname(1, name) != nullptr ? name : "";
}

VerbsFacts verbs_of(const char* dir) {
    VerbsFacts verbs;
    const std::string lib = fixtures(std::string("/") + dir + "/libibverbs.so.1");
    verbs.library = Sourced<std::string>::of(lib, {"file", lib});
    verbs.devices.push_back(query_verbs_device(lib, "mlx5_1"));
    return verbs;
}

const sysfs::RdmaPort& port_1(const sysfs::DeviceInventory& inventory) {
    REQUIRE(inventory.rdma_devices.size() == 1);
    REQUIRE(inventory.rdma_devices[0].ports.size() == 1);
    return inventory.rdma_devices[0].ports[0];
}

struct Rooted {
    test::TempTree tree;
    RootedFs fs = [this] {
        write_sysfs(tree);
        return RootedFs::open(tree.root()).value();
    }();
    MapEnv env;
    ProbeContext ctx{fs, env, quiet(), Deadline(20s), 2s, std::nullopt, false};
};

}  // namespace

TEST_CASE("a deferred scan leaves the GID tables pending; reading them is what a scan does") {
    const Rooted r;
    auto deferred = sysfs::scan_devices(r.fs, sysfs::GidTables::defer);
    CHECK(port_1(deferred).pending_gids.has_value());
    CHECK_FALSE(port_1(deferred).gids.ok());
    finish_gid_tables(r.ctx, deferred, nullptr);
    const auto read = sysfs::scan_devices(r.fs);
    CHECK_FALSE(port_1(read).pending_gids.has_value());
    CHECK_FALSE(port_1(deferred).pending_gids.has_value());
    REQUIRE(port_1(deferred).gids.ok());
    CHECK(port_1(deferred).gids.source.ref == port_1(read).gids.source.ref);
    CHECK(*port_1(deferred).gid_count.value == 1);
    CHECK(*port_1(deferred).netdevs.value == *port_1(read).netdevs.value);
    CHECK(port_1(deferred).netdevs.source.ref == std::string(kPort) + "gid_attrs/ndevs");
}

TEST_CASE("live: the port's GID table comes from ibv_query_gid_table, sourced to it") {
    const Rooted r;
    auto inventory = sysfs::scan_devices(r.fs, sysfs::GidTables::defer);
    const VerbsFacts verbs = verbs_of("ibverbs");
    finish_gid_tables(r.ctx, inventory, &verbs);
    const auto& port = port_1(inventory);
    REQUIRE(port.gids.ok());
    const std::string ref =
        "ibv_query_gid_table(mlx5_1) via " + fixtures("/ibverbs/libibverbs.so.1");
    CHECK(port.gids.source.kind == "api");
    CHECK(port.gids.source.ref == ref);
    CHECK(port.gid_count.source.ref == ref);
    CHECK(*port.gid_count.value == 3);
    CHECK(*port.gid_types.value == std::vector<std::string>{"IB/RoCE v1", "RoCE v2"});
    CHECK(port.netdevs.source.ref == ref);
    CHECK(*port.netdevs.value == std::vector<std::string>{netdev_of_ifindex_1()});
    const auto verdict = probe_roce_gid(inventory);
    REQUIRE(verdict.ports.size() == 1);
    CHECK(verdict.ports[0].status == Status::pass);
    REQUIRE(verdict.ports[0].ip_gids.size() == 1);
    CHECK(verdict.ports[0].ip_gids[0].index == 2);
    CHECK(verdict.ports[0].ip_gids[0].address == "::ffff:192.0.2.10");
}

TEST_CASE("live without a table answer: sysfs's files, and the source says so") {
    const Rooted r;
    SUBCASE("libibverbs predates ibv_query_gid_table") {
        auto inventory = sysfs::scan_devices(r.fs, sysfs::GidTables::defer);
        const VerbsFacts verbs = verbs_of("ibverbs-no-gid-table");
        REQUIRE(verbs.devices[0].ports[0].gid_query == kGidEntryQuery);
        finish_gid_tables(r.ctx, inventory, &verbs);
        CHECK(port_1(inventory).gids.source.kind == "sysfs");
        CHECK(port_1(inventory).gids.source.ref == std::string(kPort) + "gids");
        CHECK(probe_roce_gid(inventory).ports[0].ip_gids.at(0).index == 5);
    }
    SUBCASE("the table call failed: the ports' gap, and sysfs") {
        auto inventory = sysfs::scan_devices(r.fs, sysfs::GidTables::defer);
        REQUIRE(::setenv("FAKE_IBVERBS_GID_TABLE", "error", 1) == 0);
        const VerbsFacts verbs = verbs_of("ibverbs");
        ::unsetenv("FAKE_IBVERBS_GID_TABLE");
        REQUIRE(verbs.devices[0].ports[0].gap);
        finish_gid_tables(r.ctx, inventory, &verbs);
        CHECK(port_1(inventory).gids.source.kind == "sysfs");
        CHECK(*port_1(inventory).netdevs.value == std::vector<std::string>{"sysfs0"});
    }
    SUBCASE("the verbs layer did not run") {
        auto inventory = sysfs::scan_devices(r.fs, sysfs::GidTables::defer);
        finish_gid_tables(r.ctx, inventory, nullptr);
        CHECK(port_1(inventory).gids.source.kind == "sysfs");
    }
    SUBCASE("an answer whose GID does not parse") {
        auto inventory = sysfs::scan_devices(r.fs, sysfs::GidTables::defer);
        VerbsFacts verbs = verbs_of("ibverbs");
        verbs.devices[0].ports[0].gids[0].gid = "not a gid";
        finish_gid_tables(r.ctx, inventory, &verbs);
        CHECK(port_1(inventory).gids.source.kind == "sysfs");
    }
}

TEST_CASE("a live run's worker answers, recorded and replayed, give the same GID verdicts") {
    const std::string dir = fixtures("/ibverbs");
    MapEnv env({{"LD_LIBRARY_PATH", dir}});
    // Live: the worker child asks the fixture library; every answer is recorded, as gather does.
    const RecordingAnswers recording(LiveAnswers::direct());
    const auto live_fs = RootedFs::open("/").value();
    const ProbeContext live{live_fs,      env,   quiet(),          Deadline(20s), 5s,
                            std::nullopt, false, Progress::none(), recording};
    const VerbsFacts live_verbs = probe_verbs(live);
    REQUIRE_MESSAGE(!live_verbs.gap, (live_verbs.gap ? live_verbs.gap->message : ""));
    const Rooted sysfs_only;
    auto live_inventory = sysfs::scan_devices(sysfs_only.fs, sysfs::GidTables::defer);
    finish_gid_tables(live, live_inventory, &live_verbs);
    const RoceGidFacts live_verdict = probe_roce_gid(live_inventory);

    // Replay: the bundle's tree (sysfs without the worker, the library's file where it was
    // found) and its captured answers, through the registry as `report` collects.
    std::map<std::string, Result<std::string>, std::less<>> answers;
    for (const auto& r : recording.recorded()) answers.insert_or_assign(r.key, r.answer);
    const CapturedAnswers captured(std::move(answers));
    test::TempTree bundle;
    write_sysfs(bundle);
    bundle.write(dir + "/libibverbs.so.1", "x");
    const auto bundle_fs = RootedFs::open(bundle.root()).value();
    const ProbeContext replay{bundle_fs,    env,   quiet(),          Deadline(20s), 5s,
                              std::nullopt, false, Progress::none(), captured};
    Facts facts;
    collect(replay, {ProbeId::roce_gid}, facts);
    REQUIRE(facts.system);
    REQUIRE(facts.verbs);
    REQUIRE(facts.roce_gid);
    const auto& port = port_1(facts.system->inventory);
    CHECK(port.gids.source.kind == "captured");
    CHECK(port.gids.source.ref == port_1(live_inventory).gids.source.ref);
    CHECK(*port.gid_count.value == *port_1(live_inventory).gid_count.value);
    CHECK(*port.netdevs.value == *port_1(live_inventory).netdevs.value);
    REQUIRE(facts.roce_gid->ports.size() == live_verdict.ports.size());
    CHECK(facts.roce_gid->ports[0].status == live_verdict.ports[0].status);
    CHECK(facts.roce_gid->ports[0].message == live_verdict.ports[0].message);
    REQUIRE(facts.roce_gid->ports[0].ip_gids.size() == 1);
    CHECK(facts.roce_gid->ports[0].ip_gids[0].index == 2);
}

}  // namespace rdmi
