// The pcie-link requirement of the gate over generated sysfs roots (copied into memory), collected
// through the registry as `check` collects them: warn (never fail) below what card and slot reach,
// pass at it, skip with the reason when nothing can be judged, narrowed by --require-device NAME.
#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <string>

#include "check/evaluate.hpp"
#include "model/registry.hpp"
#include "support/memory_fs.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi::gate {
namespace {

using namespace std::chrono_literals;

spdlog::logger& quiet() {
    static spdlog::logger logger("gate-pcie-test", std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

// A sysfs scenario, collected as `check --require-pcie-link [--require-device]` collects it.
struct Gate {
    test::MemoryFs fs;
    Facts facts;

    explicit Gate(const std::string& scenario) : fs(test::sysfs_fixture_in_memory(scenario)) {}

    Check judge(const Policy& policy) {
        const MapEnv env;
        const ProbeContext ctx{fs, env, quiet(), Deadline(10s), 5s, std::nullopt, false};
        GateFacts gate;
        if (needs_devices(policy)) {
            collect(ctx, {ProbeId::devices}, facts);
            gate.devices = &*facts.devices;
        }
        REQUIRE(needs_pcie_link(policy));
        collect(ctx, {ProbeId::pcie_link}, facts);
        gate.pcie_link = &*facts.pcie_link;
        gate.pci_bus_present = facts.system->pci_bus_present;
        gate.live = false;
        const auto checks = evaluate(policy, gate);
        REQUIRE(!checks.empty());
        CHECK(checks.back().id == "pcie-link");
        return checks.back();
    }
};

Policy links(std::optional<std::string> device = std::nullopt) {
    Policy p;
    p.require_pcie_link = true;
    p.device = std::move(device);
    return p;
}

TEST_CASE("gate pcie-link: a link below what card and slot reach warns, naming the figures") {
    Gate gate("degraded-link");
    const Check check = gate.judge(links());
    CHECK(check.status == Status::warn);
    // One link behind port 0000:00:01.0: PF0 trained low, PF1 at its best; both named.
    CHECK(check.message ==
          "0000:03:00.0 and 0000:03:00.1 share one link (upstream port 0000:00:01.0) but "
          "disagree: 0000:03:00.0 runs at 16.0 GT/s x16 of 32.0 GT/s x16: half its PCIe "
          "bandwidth; its upstream port 0000:00:01.0 can do more: reseat the card or check the "
          "slot's lanes and BIOS bifurcation; 0000:03:00.1 runs at 32.0 GT/s x16, its maximum");
    CHECK(check.remediation.starts_with("Reseat a card"));
    REQUIRE_FALSE(check.sources.empty());
    CHECK(check.sources.front().ref == "/sys/bus/pci/devices/0000:03:00.0/current_link_speed");
    // Warn is the contract's pass, or fail under --fail-on-warn: never skip.
    CHECK(gate_verdict({check}, false) == Status::pass);
    CHECK(gate_verdict({check}, true) == Status::fail);
}

TEST_CASE("gate pcie-link: a card its slot holds back warns as slot-limited") {
    Gate gate("slot-limited");
    const Check check = gate.judge(links());
    CHECK(check.status == Status::warn);
    CHECK(
        check.message.starts_with("0000:03:00.0 and 0000:03:00.1, one link (upstream port "
                                  "0000:00:01.0), runs at 16.0 GT/s x8, limited by its slot"));
    CHECK(check.remediation.starts_with("Move a slot-limited card"));
}

TEST_CASE("gate pcie-link: every link at its best passes") {
    Gate gate("full-link");
    const Check check = gate.judge(links());
    CHECK(check.status == Status::pass);
    CHECK(check.message ==
          "0000:03:00.0 and 0000:03:00.1, one link (upstream port 0000:00:01.0), runs at 32.0 "
          "GT/s x16, its maximum");
}

TEST_CASE("gate pcie-link: --require-device narrows the judgement to that device's links") {
    Gate gate("degraded-link");
    // PF1 (mlx5_1) trained at its best, but PF0 on the same link did not: the verdict is the
    // link's, and names both.
    const Check pf1 = gate.judge(links("mlx5_1"));
    CHECK(pf1.status == Status::warn);
    CHECK(pf1.message.starts_with("0000:03:00.0 and 0000:03:00.1 share one link"));
    CHECK(gate.judge(links("ens1f0np0")).status == Status::warn);
    CHECK(gate.judge(links("0000:03:00.0")).status == Status::warn);
    // The management function is no RDMA device, so --require-device does not select it (the
    // device check fails on it the same way).
    const Check mgmt = gate.judge(links("0000:03:00.2"));
    CHECK(mgmt.status == Status::skip);
    CHECK(mgmt.message == "cannot be checked: no device 0000:03:00.2 found, so no link of it");
    const Check absent = gate.judge(links("mlx5_9"));
    CHECK(absent.status == Status::skip);
    CHECK(absent.message == "cannot be checked: no device mlx5_9 found, so no link of it");
    // Any device (--require-device without a name): every function, as without it.
    CHECK(gate.judge(links("")).status == Status::warn);
}

TEST_CASE("gate pcie-link: a Socket Direct card's links are judged apart") {
    // PF0 (mlx5_0) on port 0000:00:01.0 at its best; PF1 (mlx5_1) on 0000:80:01.0 at half.
    Gate gate("socket-direct");
    CHECK(gate.judge(links("mlx5_0")).status == Status::pass);
    const Check pf1 = gate.judge(links("mlx5_1"));
    CHECK(pf1.status == Status::warn);
    CHECK(pf1.message.starts_with("0000:83:00.0 runs at 16.0 GT/s x8 of 32.0 GT/s x8"));
    CHECK(gate.judge(links()).status == Status::warn);
}

TEST_CASE("gate pcie-link: no link attributes, no device, no PCI bus: skip with the reason") {
    Gate switched("bf3-host-switch");
    const Check none = switched.judge(links());
    CHECK(none.status == Status::skip);
    CHECK(none.message.starts_with(
        "cannot be checked: no PCIe link of its own to judge: 0000:03:00.0: no link attributes"));
    CHECK_FALSE(none.remediation.empty());
    CHECK(gate_verdict({none}, true) == Status::skip);  // --fail-on-warn touches no skip

    Gate empty("empty");
    const Check nothing = empty.judge(links());
    CHECK(nothing.status == Status::skip);
    CHECK(nothing.message ==
          "cannot be checked: no NVIDIA PCI function found, so no link to judge");

    PcieLinkFacts no_links;
    const Check no_bus = pcie_link_gate(links(), no_links, nullptr, false, false);
    CHECK(no_bus.status == Status::skip);
    CHECK(no_bus.message == "cannot be checked: no /sys/bus/pci/devices under --root");
}

TEST_CASE("gate pcie-link: a VF named by --require-device has no link of its own, and says so") {
    Gate gate("cx7-vfs");  // PF 0000:81:00.0 (mlx5_0), VFs 0000:81:00.1.. (mlx5_1..)
    const Check vf = gate.judge(links("mlx5_1"));
    CHECK(vf.status == Status::skip);
    CHECK(vf.message ==
          "cannot be checked: no PCIe link of its own to judge: 0000:81:00.1 (VF: shares its "
          "PF's link (not applicable))");
}

TEST_CASE("gate pcie-link: an unreadable figure is a skip with its file, and a fix") {
    Gate gate("full-link");
    gate.fs.write("/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0/current_link_speed",
                  "Unknown\n");
    const Check check = gate.judge(links());
    CHECK(check.status == Status::skip);
    CHECK(
        check.message.starts_with("not judged: 0000:03:00.0 and 0000:03:00.1 share one link "
                                  "(upstream port 0000:00:01.0) but disagree: 0000:03:00.0: "));
    CHECK(check.message.find("current_link_speed") != std::string::npos);
    CHECK(check.remediation.find("current_link_*") != std::string::npos);
}

TEST_CASE("gate pcie-link: only when asked for") {
    Policy p;
    p.min_version = "3.2";
    CHECK_FALSE(needs_pcie_link(p));
    p.require_pcie_link = true;
    CHECK(needs_pcie_link(p));
    CHECK_FALSE(links().empty());
}

}  // namespace
}  // namespace rdmi::gate
