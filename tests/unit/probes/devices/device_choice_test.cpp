// Tests for recommend_device(): qualification, the tie rule, and the reason when none qualifies.
#include "probes/devices/device_choice.hpp"

#include <doctest/doctest.h>

namespace rdmi {
namespace {

DeviceSummary row(const std::string& function, const std::string& kind, sysfs::DpaSupport dpa,
                  bool active, std::vector<std::string> rdma = {"mlx5_x"}) {
    DeviceSummary r;
    r.function = function;
    r.kind = kind;
    r.rdma_devices = std::move(rdma);
    r.port_active = active;
    r.port_state = active ? "ACTIVE" : "DOWN";
    if (active && !r.rdma_devices.empty()) r.active_rdma_device = r.rdma_devices.front();
    r.dpa = Sourced<sysfs::DpaCapability>::of({dpa, ""}, {});
    return r;
}

}  // namespace

TEST_CASE("the qualified PF wins over a qualified VF and SF, then the lowest name") {
    DevicesFacts facts;
    facts.summary = {row("0000:03:00.3", "VF", sysfs::DpaSupport::yes, true),
                     row("mlx5_core.sf.2", "SF", sysfs::DpaSupport::yes, true),
                     row("0000:03:00.1", "PF", sysfs::DpaSupport::yes, true, {"mlx5_1"}),
                     row("0000:03:00.0", "PF", sysfs::DpaSupport::yes, false)};
    const auto choice = recommend_device(facts);
    REQUIRE(choice.function.has_value());
    CHECK(*choice.function == "0000:03:00.1");
    CHECK(choice.rdma_device == "mlx5_1");
    CHECK(choice.reason.find("2 other function(s) also qualify") != std::string::npos);
}

TEST_CASE("none qualifies: each function's shortfall is named") {
    DevicesFacts facts;
    facts.summary = {row("0000:03:00.0", "PF", sysfs::DpaSupport::yes, false),
                     row("0000:3b:00.0", "PF", sysfs::DpaSupport::no, true),
                     row("0000:81:00.0", "PF", sysfs::DpaSupport::yes, false, {})};
    const auto choice = recommend_device(facts);
    CHECK_FALSE(choice.function.has_value());
    CHECK(choice.reason ==
          "none qualifies: 0000:03:00.0: no ACTIVE port (DOWN); 0000:3b:00.0: no DPA; "
          "0000:81:00.0: no RDMA device (mlx5_ib not bound)");
    // Hundreds of VFs: the reason stays one bounded line.
    for (int i = 0; i < 17; ++i)
        facts.summary.push_back(
            row("0000:81:01." + std::to_string(i), "VF", sysfs::DpaSupport::no, true));
    CHECK(recommend_device(facts).reason.ends_with("; and 12 more"));
    facts.pci_bus_present = false;
    CHECK(recommend_device(facts).reason.find("no /sys/bus/pci/devices") != std::string::npos);
}

TEST_CASE("the rdma device named is the one whose port is ACTIVE, and the reason is true of it") {
    // A function with two rdma devices, the first one's port down: naming the first (and its
    // "DOWN/ACTIVE") sent a workload to a port that is down.
    DeviceSummary pf =
        row("0000:03:00.0", "PF", sysfs::DpaSupport::yes, true, {"mlx5_0", "mlx5_9"});
    pf.port_state = "DOWN/ACTIVE";
    pf.active_rdma_device = "mlx5_9";
    DevicesFacts facts;
    facts.summary = {pf};
    const auto choice = recommend_device(facts);
    CHECK(choice.rdma_device == "mlx5_9");
    CHECK(choice.reason == "0000:03:00.0 PF: DPA supported, mlx5_9 port ACTIVE");
}

TEST_CASE("summarize_devices records which rdma device has the ACTIVE port") {
    sysfs::DeviceInventory inventory;
    sysfs::Function fn;
    fn.name = "0000:03:00.0";
    fn.pci_address = fn.name;
    fn.rdma_devices = {"mlx5_0", "mlx5_9"};
    inventory.functions.push_back(fn);
    for (const auto& [name, state] : {std::pair{"mlx5_0", "DOWN"}, std::pair{"mlx5_9", "ACTIVE"}}) {
        sysfs::RdmaDevice dev;
        dev.name = name;
        sysfs::RdmaPort port;
        port.state = Sourced<sysfs::NumberedName>::of(
            {state == std::string("ACTIVE") ? 4U : 1U, state}, {"sysfs", "state"});
        dev.ports.push_back(port);
        inventory.rdma_devices.push_back(dev);
    }
    const auto rows = summarize_devices(inventory, {}, {});
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].port_active);
    CHECK(rows[0].active_rdma_device == "mlx5_9");
}

TEST_CASE("ties: the shorter name first, so sf.2 before sf.10 and PCI addresses in bus order") {
    DevicesFacts facts;
    facts.summary = {row("mlx5_core.sf.10", "SF", sysfs::DpaSupport::yes, true),
                     row("mlx5_core.sf.2", "SF", sysfs::DpaSupport::yes, true)};
    CHECK(*recommend_device(facts).function == "mlx5_core.sf.2");
    facts.summary = {row("0000:b1:00.0", "PF", sysfs::DpaSupport::yes, true),
                     row("0000:21:00.0", "PF", sysfs::DpaSupport::yes, true)};
    CHECK(*recommend_device(facts).function == "0000:21:00.0");
}

}  // namespace rdmi
