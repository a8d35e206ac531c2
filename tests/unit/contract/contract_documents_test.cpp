// Tests for the contract emitters on hand-made facts: placeholders, gaps, fallbacks, sides.
// (They live beside the contract tests: the emitters exist only for the contract.)
#include "report/contract_documents.hpp"

#include <doctest/doctest.h>

#include "report/contract_common.hpp"

namespace rdmi::json {
namespace {

using contract::ContractFacts;
using contract::Json;

bool has_gap(const contract::Document& doc, const std::string& pointer) {
    for (const auto& g : doc.gaps) {
        if (g.pointer == pointer) return true;
    }
    return false;
}

const contract::Fallback* fallback(const contract::Document& doc, const std::string& pointer) {
    for (const auto& f : doc.fallbacks) {
        if (f.pointer == pointer) return &f;
    }
    return nullptr;
}

ContractFacts facts_with_devices() {
    ContractFacts facts;
    sysfs::Function pf;
    pf.name = pf.pci_address = "0000:03:00.0";
    pf.sysfs_path = "/sys/bus/pci/devices/0000:03:00.0";
    pf.netdevs = {"eth0"};
    pf.rdma_devices = {"mlx5_0"};
    sysfs::Function vf = pf;
    vf.name = vf.pci_address = "0000:03:00.2";
    vf.kind = sysfs::FunctionKind::vf;
    vf.netdevs = {};
    vf.rdma_devices = {};
    facts.devices.functions = {pf, vf};
    sysfs::NetDev eth0;
    eth0.name = "eth0";
    eth0.operstate =
        Sourced<std::string>::of("unknown", {"sysfs", "/sys/class/net/eth0/operstate"});
    eth0.mtu = Sourced<std::uint32_t>::missing({GapReason::malformed, "mtu: junk"},
                                               {"sysfs", "/sys/class/net/eth0/mtu"});
    facts.devices.netdevs = {eth0};
    sysfs::RdmaDevice ib;
    ib.name = "mlx5_0";
    sysfs::RdmaPort port;
    port.state = Sourced<sysfs::NumberedName>::of({4, "ACTIVE"}, {"sysfs", "ports/1/state"});
    ib.ports = {port};
    ib.fw_ver =
        Sourced<std::string>::of("28.39.1002", {"sysfs", "/sys/class/infiniband/mlx5_0/fw_ver"});
    facts.devices.rdma_devices = {ib};
    return facts;
}

TEST_CASE("devices: state from the rdma port when operstate says nothing; mtu 0 with a gap") {
    auto facts = facts_with_devices();
    auto doc = env_document(facts);
    const Json& d = doc.body["devices"];
    REQUIRE(d.size() == 2);
    CHECK(d[0]["name"] == "eth0");
    CHECK(d[0]["state"] == "active");
    CHECK(d[0]["mtu"] == 0);
    CHECK(has_gap(doc, "/devices/0/mtu"));
    CHECK(d[0]["representor_of"].is_null());
    CHECK(d[1]["kind"] == "VF");
    CHECK(d[1]["state"] == "unknown");
    CHECK(d[1]["name"] == "0000:03:00.2");
    CHECK(has_gap(doc, "/devices/1/state"));
}

TEST_CASE("devices: an rdma port in ACTIVE_DEFER passes traffic; INIT and ARMED do not") {
    // IB port states (include/rdma/ib_verbs.h): 4 ACTIVE and 5 ACTIVE_DEFER carry traffic.
    // sysfs writes them "4: ACTIVE" and "5: ACTIVE_DEFER"; the netdev says "unknown" here,
    // so the port decides.
    const struct {
        std::uint32_t number;
        const char* name;
        const char* state;
    } cases[] = {{5, "ACTIVE_DEFER", "active"}, {4, "ACTIVE", "active"}, {3, "ARMED", "down"},
                 {2, "INIT", "down"},           {1, "DOWN", "down"},     {6, "NOP", "down"}};
    for (const auto& c : cases) {
        const std::string name = c.name;
        CAPTURE(name);
        auto facts = facts_with_devices();
        facts.devices.rdma_devices[0].ports[0].state = Sourced<sysfs::NumberedName>::of(
            {c.number, c.name}, {"sysfs", "/sys/class/infiniband/mlx5_0/ports/1/state"});
        auto doc = env_document(facts);
        CHECK(doc.body["devices"][0]["state"].get<std::string>() == c.state);
        CHECK_FALSE(has_gap(doc, "/devices/0/state"));
    }
}

TEST_CASE("env: missing versions are empty strings with gaps; bfb null; unknown host kind") {
    auto facts = facts_with_devices();
    auto doc = env_document(facts);
    CHECK(doc.body["version"]["pkg_config"] == "");
    CHECK(doc.body["version"]["bfb"].is_null());
    CHECK(doc.body["version"]["consistent"] == false);
    CHECK(doc.body["host_kind"] == "unknown");
    CHECK(doc.body["bf_mode"].is_null());
    CHECK(doc.body["drivers"]["kernel_version"] == "");
    CHECK(doc.body["hugepages"]["available_2m"] == 0);
}

TEST_CASE("state: side from host kind, forced side, firmware as a fallback from flint") {
    auto facts = facts_with_devices();
    auto doc = state_document(facts, std::nullopt);
    CHECK(doc.body["side"] == "host");
    CHECK(doc.kind == "collect-host-state");
    REQUIRE(fallback(doc, "/side") != nullptr);  // unknown host kind: defaulted
    CHECK(doc.body["firmware_version"] == "28.39.1002");
    const auto* fw = fallback(doc, "/firmware_version");
    REQUIRE(fw != nullptr);
    CHECK(fw->primary == "flint -d 0000:03:00.0 q");
    CHECK(fw->used == "sysfs fw_ver");
    CHECK_FALSE(doc.body["devices"][0].contains("name"));

    facts.host.host_kind = host::HostKind::bluefield;
    auto dpu = state_document(facts, std::nullopt);
    CHECK(dpu.body["side"] == "dpu");
    CHECK(dpu.kind == "collect-dpu-state");
    CHECK(state_document(facts, Side::host).body["side"] == "host");
}

TEST_CASE("state: a side forced against the host kind is honoured and says so") {
    auto facts = facts_with_devices();
    facts.host.host_kind = host::HostKind::host;
    facts.host.host_kind_evidence.push_back({"architecture x86_64", Provenance{"procfs", "arch"}});
    // doca-collect-dpu-state on a host: the document says dpu, and that the probe disagreed.
    auto doc = state_document(facts, Side::dpu);
    CHECK(doc.body["side"] == "dpu");
    CHECK(doc.kind == "collect-dpu-state");
    const auto* f = fallback(doc, "/side");
    REQUIRE(f != nullptr);
    CHECK(f->primary == "host-kind probe");
    CHECK(f->note == "side forced to dpu although the host-kind probe says host");
    auto from = contract_json(doc, RunFacts{"2023-11-14T22:13:20Z", "/", true}, false);
    CHECK(from["x_rdmi_probe"]["provenance"]["/side"]["ref"] ==
          "forced (--side or the helper name), against the host kind host: architecture x86_64");

    facts.host.host_kind = host::HostKind::bluefield;
    const auto as_host = state_document(facts, Side::host);
    f = fallback(as_host, "/side");
    REQUIRE(f != nullptr);
    CHECK(f->note == "side forced to host although the host-kind probe says bluefield");
    // Forced the way the probe says, or where it cannot tell: nothing to note.
    CHECK(fallback(state_document(facts, Side::dpu), "/side") == nullptr);
    facts.host.host_kind = host::HostKind::unknown;
    CHECK(fallback(state_document(facts, Side::dpu), "/side") == nullptr);
}

TEST_CASE("bf_mode undecidable on a BlueField: null, and the mlxconfig command named") {
    auto facts = facts_with_devices();
    facts.host.host_kind = host::HostKind::bluefield;
    facts.host.bf_mode_command = "mlxconfig -d 0000:03:00.0 q INTERNAL_CPU_MODEL";
    facts.host.bf_mode_gap = Gap{GapReason::permission_denied, "needs mlxconfig"};
    auto doc = env_document(facts);
    CHECK(doc.body["bf_mode"].is_null());
    const auto* f = fallback(doc, "/bf_mode");
    REQUIRE(f != nullptr);
    CHECK(f->primary == facts.host.bf_mode_command);
    CHECK(f->used.empty());
    CHECK(has_gap(doc, "/bf_mode"));
}

TEST_CASE("firmware unknown: empty string, gap, and flint named") {
    auto facts = facts_with_devices();
    facts.devices.rdma_devices.clear();
    auto doc = state_document(facts, Side::dpu);
    CHECK(doc.body["firmware_version"] == "");
    CHECK(has_gap(doc, "/firmware_version"));
}

TEST_CASE("caps: host kind never unknown; no discovery means no devices and a gap") {
    auto facts = facts_with_devices();
    auto doc = caps_document(facts);
    CHECK(doc.body["host_kind"] == "host");
    CHECK(fallback(doc, "/host_kind") != nullptr);
    CHECK(doc.body["devices"].empty());
    CHECK(has_gap(doc, "/devices"));

    contract::CapabilityDiscovery found;
    found.devices.push_back(
        {"0000:03:00.0", {{"doca_rdma", {"task_write"}}, {"doca_dpa", {"dpa"}}}, {}});
    facts.capabilities = found;
    auto with = caps_document(facts);
    REQUIRE(with.body["devices"].size() == 1);
    CHECK(with.body["devices"][0]["library_capabilities"]["doca_rdma"][0] == "task_write");
    CHECK(with.body["devices"][0]["library_capabilities"]["doca_dpa"][0] == "dpa");
}

TEST_CASE("contract_json: x_rdmi_probe only without strict, and nothing else added") {
    auto doc = state_document(facts_with_devices(), Side::host);
    RunFacts run{"2023-11-14T22:13:20Z", "/", true};
    auto full = contract_json(doc, run, false);
    auto strict = contract_json(doc, run, true);
    CHECK(full.size() == strict.size() + 1);
    REQUIRE(full.contains("x_rdmi_probe"));
    CHECK(full["x_rdmi_probe"]["schema"] == "urn:rdmi-probe:schema:collect-state");
    CHECK(full["x_rdmi_probe"]["provenance"].contains("/firmware_version"));
    CHECK_FALSE(strict.contains("x_rdmi_probe"));
}

}  // namespace
}  // namespace rdmi::json
