// Tests for the verbs layer: flag decoding, the soname search, the wire format, and the
// fixture libibverbs loaded through the production code path.
#include <doctest/doctest.h>
#include <net/if.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "api/ibverbs_api.hpp"
#include "model/registry.hpp"
#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "probes/verbs/verbs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {

TEST_CASE("device_cap_flags: named bits in table order, the rest as a mask") {
    auto decoded = ibv::decode_flags((1ULL << 0) | (1ULL << 29) | (1ULL << 15) | (1ULL << 40),
                                     ibv::device_cap_flag_names());
    CHECK(decoded.names == std::vector<std::string>{"resize_max_wr", "managed_flow_steering"});
    CHECK(decoded.unknown_mask == ((1ULL << 15) | (1ULL << 40)));
    CHECK(ibv::decode_flags(0, ibv::device_cap_flag_names()).names.empty());
}

TEST_CASE("verbs enum names") {
    CHECK(ibv::mtu_bytes(3) == 1024);
    CHECK(ibv::mtu_bytes(5) == 4096);
    CHECK(ibv::mtu_bytes(9) == 0);
    CHECK(ibv::port_state_name(4) == "ACTIVE");
    CHECK(ibv::port_state_name(77).empty());
    CHECK(ibv::width_name(2) == "4X");
    CHECK(ibv::speed_name(128) == "NDR");
    CHECK(ibv::link_layer_name(2) == "Ethernet");
}

TEST_CASE("locate_soname: LD_LIBRARY_PATH first, then ld.so.conf includes, else not_installed") {
    test::TempTree tree;
    tree.write("/env/libibverbs.so.1", "x");
    tree.write("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    tree.write("/etc/ld.so.conf.d/rdma.conf", "# comment\n/opt/rdma/lib\n");
    tree.write("/opt/rdma/lib/libibverbs.so.1", "x");
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    MapEnv with(
        std::map<std::string, std::string, std::less<>>{{"LD_LIBRARY_PATH", "/nowhere:/env"}});
    auto found = locate_soname(*fs, with, "libibverbs.so.1");
    REQUIRE(found.ok());
    CHECK(*found.value == "/env/libibverbs.so.1");
    CHECK(found.source.ref.find("LD_LIBRARY_PATH") != std::string::npos);
    MapEnv without;
    auto conf = locate_soname(*fs, without, "libibverbs.so.1");
    REQUIRE(conf.ok());
    CHECK(*conf.value == "/opt/rdma/lib/libibverbs.so.1");
    auto none = locate_soname(*fs, without, "libnothing.so.9");
    REQUIRE(none.gap);
    CHECK(none.gap->reason == GapReason::not_installed);
}

TEST_CASE("locate_soname skips a library built for another machine, as ld.so does") {
    test::TempTree tree;
    // An ELF header of the other common architecture (e_machine at offset 18, host order).
    std::string foreign = std::string(
                              "\x7f"
                              "ELF\x02\x01\x01",
                              7) +
                          std::string(11, '\0');
#if defined(__x86_64__)
    const std::uint16_t other = 183;  // EM_AARCH64
#else
    const std::uint16_t other = 62;  // EM_X86_64
#endif
    foreign.append(reinterpret_cast<const char*>(&other), 2);  // NOLINT: bytes of an integer
    foreign.append(46, '\0');
    tree.write("/foreign/libibverbs.so.1", foreign);
    tree.write("/native/libibverbs.so.1", "x");
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    MapEnv env(
        std::map<std::string, std::string, std::less<>>{{"LD_LIBRARY_PATH", "/foreign:/native"}});
    auto found = locate_soname(*fs, env, "libibverbs.so.1");
    REQUIRE(found.ok());
    CHECK(*found.value == "/native/libibverbs.so.1");
}

TEST_CASE("verbs wire format round-trips and rejects garbage") {
    VerbsDevice d;
    d.name = "mlx5_0";
    d.query = "ibv_query_device_ex";
    d.limits = {{"max_qp", 7}};
    d.device_cap_flags = {0x8001, {"resize_max_wr"}, 0x8000};
    d.odp_caps = VerbsOdpCaps{};
    VerbsPort p;
    p.port_num = 1;
    p.gids = {{0, "fe80:0000:0000:0000:0000:0000:0000:0001", "", 0, ""}};
    d.ports.push_back(p);
    VerbsDevice timed_out;
    timed_out.name = "mlx5_1";
    timed_out.gap = Gap{GapReason::timeout, "late"};
    auto back = decode_verbs_devices(encode_verbs_devices({d, timed_out}));
    REQUIRE(back.ok());
    REQUIRE(back->size() == 2);
    CHECK((*back)[0].limits == d.limits);
    CHECK((*back)[0].device_cap_flags.unknown_mask == 0x8000);
    CHECK((*back)[0].odp_caps.has_value());
    CHECK((*back)[0].ports.at(0).gids.at(0).gid == p.gids[0].gid);
    CHECK((*back)[1].gap->reason == GapReason::timeout);
    CHECK(decode_verbs_devices("not json").gap().reason == GapReason::malformed);
    CHECK(decode_verbs_devices(R"([{"name":1}])").gap().reason == GapReason::malformed);
}

TEST_CASE("fixture libibverbs: listing and querying in-process, both query paths") {
    const std::string lib = std::string(RDMI_TEST_FIXTURES_DIR) + "/ibverbs/libibverbs.so.1";
    auto listed = list_verbs_devices(lib);
    REQUIRE(listed.size() == 2);
    CHECK(listed[1].node_guid == "0c42:a103:00a0:0001");
    auto ex = query_verbs_device(lib, "mlx5_0");
    CHECK_FALSE(ex.gap);
    CHECK(ex.query == "ibv_query_device_ex");
    CHECK(ex.device_cap_flags.unknown_mask == (1ULL << 40));
    REQUIRE(ex.odp_caps);
    CHECK(ex.odp_caps->general_caps.names == std::vector<std::string>{"support"});
    auto legacy = query_verbs_device(lib, "mlx5_1");
    CHECK(legacy.query == "ibv_query_device");
    REQUIRE(legacy.ports.size() == 2);
    CHECK(legacy.ports[1].state == "DOWN");
    CHECK(legacy.ports[0].gids.size() == 3);
    CHECK(query_verbs_device(lib, "mlx5_9").gap->reason == GapReason::not_found);
}

namespace {

std::string fake_library(const char* dir) {
    return std::string(RDMI_TEST_FIXTURES_DIR) + "/" + dir + "/libibverbs.so.1";
}

// The name this machine gives the fixture's netdev index 1 (lo in any network namespace).
std::string name_of_ifindex_1() {
    char name[IF_NAMESIZE] = {};
    return ::if_indextoname(1, name) != nullptr ? name : "";
}

// Sets FAKE_IBVERBS_GID_TABLE for one scope: the fixture reads it at each call.
struct GidTableFault {
    explicit GidTableFault(const char* how) {
        REQUIRE(::setenv("FAKE_IBVERBS_GID_TABLE", how, 1) == 0);
    }
    ~GidTableFault() { ::unsetenv("FAKE_IBVERBS_GID_TABLE"); }
    GidTableFault(const GidTableFault&) = delete;
    GidTableFault& operator=(const GidTableFault&) = delete;
};

}  // namespace

TEST_CASE("ibv_query_gid_table: every port's valid entries in one call, with type and netdev") {
    CHECK(ibv::gid_type_name(0) == "IB/RoCE v1");
    CHECK(ibv::gid_type_name(1) == "IB/RoCE v1");
    CHECK(ibv::gid_type_name(2) == "RoCE v2");
    CHECK(ibv::gid_type_name(7).empty());
    auto roce = query_verbs_device(fake_library("ibverbs"), "mlx5_1");
    REQUIRE_FALSE(roce.gap);
    REQUIRE(roce.ports.size() == 2);
    const VerbsPort& port = roce.ports[0];
    CHECK_FALSE(port.gap);
    CHECK(port.gid_query == kGidTableQuery);
    REQUIRE(port.gids.size() == 3);
    CHECK(port.gids[0].index == 0);
    CHECK(port.gids[0].type == "IB/RoCE v1");
    CHECK(port.gids[1].type == "RoCE v2");
    CHECK(port.gids[2].index == 2);
    CHECK(port.gids[2].gid == "0000:0000:0000:0000:0000:ffff:c000:020a");
    CHECK(port.gids[2].type == "RoCE v2");
    CHECK(port.gids[2].ndev_ifindex == 1);
    CHECK(port.gids[2].ndev == name_of_ifindex_1());
    CHECK(roce.ports[1].gid_query == kGidTableQuery);
    CHECK(roce.ports[1].gids.empty());
    auto ib = query_verbs_device(fake_library("ibverbs"), "mlx5_0");
    REQUIRE(ib.ports.size() == 1);
    REQUIRE(ib.ports[0].gids.size() == 1);
    CHECK(ib.ports[0].gids[0].ndev_ifindex == 0);
    CHECK(ib.ports[0].gids[0].ndev.empty());
}

TEST_CASE("a libibverbs without ibv_query_gid_table: each entry asked, the same addresses") {
    auto table = query_verbs_device(fake_library("ibverbs"), "mlx5_1");
    auto by_entry = query_verbs_device(fake_library("ibverbs-no-gid-table"), "mlx5_1");
    REQUIRE_FALSE(by_entry.gap);
    REQUIRE(by_entry.ports.size() == 2);
    CHECK(by_entry.ports[0].gid_query == kGidEntryQuery);
    REQUIRE(by_entry.ports[0].gids.size() == table.ports[0].gids.size());
    for (std::size_t i = 0; i < by_entry.ports[0].gids.size(); ++i) {
        CHECK(by_entry.ports[0].gids[i].index == table.ports[0].gids[i].index);
        CHECK(by_entry.ports[0].gids[i].gid == table.ports[0].gids[i].gid);
        CHECK(by_entry.ports[0].gids[i].type.empty());
    }
}

TEST_CASE("a broken ibv_query_gid_table answer is a gap on the ports, not a crash") {
    const std::string lib = fake_library("ibverbs");
    {
        const GidTableFault fault("error");
        auto device = query_verbs_device(lib, "mlx5_1");
        REQUIRE_FALSE(device.gap);
        for (const auto& port : device.ports) {
            REQUIRE(port.gap);
            CHECK(port.gap->reason == GapReason::error);
            CHECK(port.gap->message.find("ibv_query_gid_table failed") != std::string::npos);
            CHECK(port.gids.empty());
        }
        CHECK(device.ports[0].state == "ACTIVE");  // what ibv_query_port said stays
    }
    {
        const GidTableFault fault("overflow");
        auto device = query_verbs_device(lib, "mlx5_1");
        REQUIRE(device.ports.at(0).gap);
        CHECK(device.ports[0].gap->reason == GapReason::malformed);
        CHECK(device.ports[0].gap->message.find("entries for room for 16") != std::string::npos);
    }
    {
        const GidTableFault fault("badport");
        auto device = query_verbs_device(lib, "mlx5_1");
        REQUIRE(device.ports.at(1).gap);
        CHECK(device.ports[1].gap->reason == GapReason::malformed);
        CHECK(device.ports[1].gap->message.find("port 9") != std::string::npos);
    }
    {
        const GidTableFault fault("duplicate");
        auto device = query_verbs_device(lib, "mlx5_1");
        REQUIRE(device.ports.at(0).gap);
        CHECK(device.ports[0].gap->reason == GapReason::malformed);
        CHECK(device.ports[0].gap->message.find("index 1 of port 1 twice") != std::string::npos);
        CHECK(device.ports[0].gids.empty());
    }
}

TEST_CASE("verbs wire format: the table's types and netdevs round-trip; older answers decode") {
    VerbsDevice d;
    d.name = "mlx5_1";
    VerbsPort p;
    p.port_num = 1;
    p.gid_query = std::string(kGidTableQuery);
    p.gids = {{2, "0000:0000:0000:0000:0000:ffff:c000:020a", "RoCE v2", 5, "eth2"}};
    d.ports.push_back(p);
    auto back = decode_verbs_devices(encode_verbs_devices({d}));
    REQUIRE(back.ok());
    const VerbsPort& q = back->at(0).ports.at(0);
    CHECK(q.gid_query == kGidTableQuery);
    CHECK(q.gids.at(0).type == "RoCE v2");
    CHECK(q.gids.at(0).ndev_ifindex == 5);
    CHECK(q.gids.at(0).ndev == "eth2");
    // An answer recorded before the table was asked for: no gid_query, [index, gid] entries.
    auto old = nlohmann::json::parse(encode_verbs_devices({d}));
    old[0]["ports"][0].erase("gid_query");
    old[0]["ports"][0]["gids"] =
        nlohmann::json::array({{2, "fe80:0000:0000:0000:0000:0000:0000:0001"}});
    auto decoded = decode_verbs_devices(old.dump());
    REQUIRE(decoded.ok());
    CHECK(decoded->at(0).ports.at(0).gid_query.empty());
    CHECK(decoded->at(0).ports.at(0).gids.at(0).type.empty());
    // A table entry cut short is malformed, not a crash.
    old[0]["ports"][0]["gids"] = nlohmann::json::array({{2, "fe80::1", "RoCE v2"}});
    CHECK(decode_verbs_devices(old.dump()).gap().reason == GapReason::malformed);
}

// A live run on this machine whose libibverbs is the fixture's (found by LD_LIBRARY_PATH).
struct FixtureVerbsRun {
    explicit FixtureVerbsRun(std::chrono::milliseconds call_timeout)
        : ctx{fs,           env,          logger(), Deadline(std::chrono::seconds(20)),
              call_timeout, std::nullopt, false} {}
    static spdlog::logger& logger() {
        static spdlog::logger log("verbs-test", std::make_shared<spdlog::sinks::null_sink_st>());
        return log;
    }
    RootedFs fs = RootedFs::open("/").value();
    MapEnv env{{{"LD_LIBRARY_PATH", std::string(RDMI_TEST_FIXTURES_DIR) + "/ibverbs"}}};
    ProbeContext ctx;
};

TEST_CASE("a hung device open costs that device only: the next one is queried in a new child") {
    using namespace std::chrono_literals;
    // Read by the fixture library in the child, which inherits this process's environment.
    REQUIRE(::setenv("FAKE_IBVERBS_HANG", "mlx5_0", 1) == 0);
    const FixtureVerbsRun run(300ms);
    const ProbeContext& ctx = run.ctx;
    const VerbsFacts facts = probe_verbs(ctx);
    ::unsetenv("FAKE_IBVERBS_HANG");
    REQUIRE_MESSAGE(!facts.gap, (facts.gap ? facts.gap->message : ""));
    REQUIRE(facts.devices.size() == 2);
    REQUIRE(facts.devices[0].gap);
    CHECK(facts.devices[0].gap->reason == GapReason::timeout);
    CHECK_FALSE(facts.devices[1].gap);
    CHECK(facts.devices[1].query == "ibv_query_device");
    // The listing and mlx5_0 in the first child (killed at the deadline), mlx5_1 in a second.
    CHECK(ctx.worker->children_started() == 2);
}

TEST_CASE("the device listing is sent before the static probes run and taken by the verbs row") {
    using namespace std::chrono_literals;
    const FixtureVerbsRun run(5s);
    const ProbeContext& ctx = run.ctx;
    Facts facts;
    // A collection that needs no verbs facts sends nothing.
    start_live_halves(ctx, std::array{ProbeId::environment}, facts);
    CHECK_FALSE(facts.verbs_start);
    CHECK(ctx.worker->children_started() == 0);
    // The devices row needs verbs through its dependencies: its start is found there.
    const std::array wanted{ProbeId::devices};
    start_live_halves(ctx, wanted, facts);
    // Sent, not yet answered: the child is working while no probe has run.
    REQUIRE(facts.verbs_start);
    CHECK(facts.verbs_start->listing);
    CHECK(facts.collected == 0);
    CHECK(ctx.worker->children_started() == 1);
    // Begun once: a command that begins it before its collect() (check) sends one listing.
    REQUIRE(facts.verbs_start->listing);
    const auto first_listing = facts.verbs_start->listing->id;
    start_live_halves(ctx, wanted, facts);
    REQUIRE(facts.verbs_start);
    REQUIRE(facts.verbs_start->listing);
    CHECK(facts.verbs_start->listing->id == first_listing);
    // Only the verbs row then (the devices row would read this machine's /sys too).
    collect(ctx, {ProbeId::verbs}, facts);
    CHECK_FALSE(facts.verbs_start);
    REQUIRE(facts.verbs);
    REQUIRE_MESSAGE(!facts.verbs->gap, (facts.verbs->gap ? facts.verbs->gap->message : ""));
    CHECK(facts.verbs->devices.size() == 2);
    // The same answers as the probe made in one piece.
    const VerbsFacts whole = probe_verbs(ctx);
    CHECK(encode_verbs_devices(whole.devices) == encode_verbs_devices(facts.verbs->devices));
    // Listing and both devices in the one child.
    CHECK(ctx.worker->children_started() == 1);
}

}  // namespace rdmi
