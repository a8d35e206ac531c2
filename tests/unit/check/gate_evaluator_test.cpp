// Tests for check's evaluation and check --wait's polls (gate_evaluator.cpp): what a poll
// re-reads per requirement kind, and that its statuses are a whole evaluation's, over copies of
// the logical-down fixture root (mlx5_0 and mlx5_1, each one DOWN port).
#include "check/gate_evaluator.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <string>
#include <vector>

#include "os/env.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi::gate {
namespace {

using namespace std::chrono_literals;

constexpr const char* kPort0 =
    "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0/infiniband/mlx5_0/ports/1/state";

spdlog::logger& evaluator_test_logger() {
    static spdlog::logger logger("gate-evaluator-test",
                                 std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

std::vector<std::string> check_statuses(const std::vector<Check>& checks) {
    std::vector<std::string> out;
    for (const auto& check : checks)
        out.push_back(check.id.str() + " " + std::string(to_string(check.status)));
    return out;
}

struct PolledTree {
    test::MemoryFs fs = test::sysfs_fixture_in_memory("logical-down");
    MapEnv env;
    [[nodiscard]] ProbeContext context() const {
        return ProbeContext{fs,           env,  evaluator_test_logger(), Deadline(10s), 5s,
                            std::nullopt, false};
    }
};

TEST_CASE("only versions, modules and consistency read the install probe's facts") {
    Policy policy;
    policy.require_port_active = true;
    policy.device = "mlx5_0";
    CHECK_FALSE(needs_install(policy));
    policy.modules.push_back({"doca-rdmi", "", ""});
    CHECK(needs_install(policy));
    policy = {};
    policy.require_consistent = true;
    CHECK(needs_install(policy));
    policy = {};
    policy.min_version = "3.3";
    CHECK(needs_install(policy));
}

TEST_CASE("a poll of port requirements re-reads the states and judges as a whole evaluation") {
    PolledTree tree;
    Policy policy;
    policy.require_dpa = true;
    policy.require_port_active = true;
    GateEvaluator evaluator(policy, tree.fs, false);
    const auto first = evaluator.evaluate(tree.context());
    CHECK(evaluator.complete());
    CHECK(gate_verdict(first, false) == Status::fail);

    auto polled = evaluator.poll(tree.context());
    CHECK_FALSE(evaluator.complete());
    CHECK(check_statuses(polled) == check_statuses(first));

    tree.fs.write(kPort0, "4: ACTIVE\n");
    polled = evaluator.poll(tree.context());
    CHECK_FALSE(evaluator.complete());
    CHECK(gate_verdict(polled, false) == Status::pass);
    GateEvaluator fresh(policy, tree.fs, false);
    CHECK(check_statuses(polled) == check_statuses(fresh.evaluate(tree.context())));
}

TEST_CASE("a poll whose tree changed shape is a whole evaluation, the next one a poll again") {
    PolledTree tree;
    Policy policy;
    policy.require_port_active = true;
    GateEvaluator evaluator(policy, tree.fs, false);
    (void)evaluator.evaluate(tree.context());
    tree.fs.remove("/sys/class/infiniband/mlx5_1");
    tree.fs.write(kPort0, "2: INIT\n");
    const auto changed = evaluator.poll(tree.context());
    CHECK(evaluator.complete());
    REQUIRE(changed.size() == 1);
    CHECK(changed[0].message.find("mlx5_1") == std::string::npos);
    CHECK(changed[0].message.find("INIT") != std::string::npos);
    const auto again = evaluator.poll(tree.context());
    CHECK_FALSE(evaluator.complete());
    CHECK(check_statuses(again) == check_statuses(changed));
}

TEST_CASE("what a poll cannot keep it reads whole on every poll") {
    PolledTree tree;
    Policy policy;
    policy.require_port_active = true;
    SUBCASE("the PCIe link requirement") {
        policy.require_pcie_link = true;
    }
    SUBCASE("a scan that left a function's id unread") {
        tree.fs.remove("/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.1/device");
    }
    GateEvaluator evaluator(policy, tree.fs, false);
    (void)evaluator.evaluate(tree.context());
    (void)evaluator.poll(tree.context());
    CHECK(evaluator.complete());
}

TEST_CASE("live, --require-dpa keeps the DPA answer only where DOCA gave one") {
    PolledTree tree;
    Policy policy;
    policy.require_dpa = true;
    GateEvaluator evaluator(policy, tree.fs, false);
    (void)evaluator.evaluate(tree.context());
    (void)evaluator.poll(tree.context());
    REQUIRE_FALSE(evaluator.complete());  // under a root the id is the only source

    DevicesFacts devices;
    devices.summary.push_back(DeviceSummary{});
    devices.summary.back().kind = "PF";
    devices.summary.back().dpa.source = {"derived", "inferred from PCI device id 0xa2dc"};
    CHECK(devices_pollable(policy, devices, false));
    CHECK_FALSE(devices_pollable(policy, devices, true));
    devices.summary.back().dpa.source = {"api", "doca_dpa_cap_is_supported"};
    CHECK(devices_pollable(policy, devices, true));
    policy.require_dpa = false;
    policy.device = "0000:03:00.0";
    devices.summary.back().dpa.source = {"derived", "inferred from PCI device id 0xa2dc"};
    CHECK(devices_pollable(policy, devices, true));
}

}  // namespace
}  // namespace rdmi::gate
