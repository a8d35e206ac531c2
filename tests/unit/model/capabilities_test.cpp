// Tests for the capability flag names and the capability discovery's gaps.
#include "model/capabilities.hpp"

#include <doctest/doctest.h>

namespace rdmi::contract {
namespace {

TEST_CASE("capability_flag derives the flag from the query symbol") {
    CHECK(capability_flag("doca_rdma", "doca_rdma_cap_task_write_is_supported") == "task_write");
    CHECK(capability_flag("doca_rdma", "doca_rdma_cap_task_send_imm_is_supported") ==
          "task_send_imm");
    CHECK(capability_flag("doca_dpa", "doca_dpa_cap_is_supported") == "dpa");
    CHECK(capability_flag("doca_rdmi", "doca_rdmi_cap_is_supported") == "rdmi");
}

TEST_CASE("capability_flag rejects symbols that are not capability queries") {
    CHECK_FALSE(capability_flag("doca_rdma", "doca_rdma_task_write_alloc_init"));
    CHECK_FALSE(capability_flag("doca_rdma", "doca_dpa_cap_is_supported"));
    CHECK_FALSE(capability_flag("doca_rdma", "doca_rdma_cap_get_max_recv_queue_size"));
    CHECK_FALSE(capability_flag("doca_rdma", "doca_rdma_cap__is_supported"));
    CHECK_FALSE(capability_flag("doca_rdma", "doca_rdma_cap_Task_is_supported"));
    CHECK_FALSE(capability_flag("", "doca_rdma_cap_task_write_is_supported"));
    CHECK_FALSE(capability_flag("doca_rdma", ""));
}

TEST_CASE("capabilities under a root: nothing was loaded, and the gap says so") {
    InstallFacts install;
    DocaCapsFacts doca;
    doca.devices.push_back(DocaDevice{});
    auto found = device_capabilities(false, install, doca);
    CHECK(found.devices.empty());
    REQUIRE(found.gaps.size() == 1);
    CHECK(found.gaps[0].reason == GapReason::not_applicable);
}

TEST_CASE("capabilities without doca-common: not installed, whatever the DOCA layer holds") {
    InstallFacts install;
    DocaCapsFacts doca;
    doca.devices.push_back(DocaDevice{});
    auto found = device_capabilities(true, install, doca);
    CHECK(found.devices.empty());
    REQUIRE(found.gaps.size() == 1);
    CHECK(found.gaps[0].reason == GapReason::not_installed);
}

TEST_CASE("capabilities per device: libraries named as DOCA does, flags sorted and unique") {
    InstallFacts install;
    install.stack.push_back(ModuleFacts{});
    install.stack.front().found = true;
    DocaCapsFacts doca;
    doca.library_gaps.push_back(Gap{GapReason::untrusted, "libdoca_rdmi: not loaded"});
    DocaDevice device;
    device.pci_address = "0000:03:00.0";
    device.supported["rdma"] = {"task_write", "task_read", "task_write"};
    device.answers.push_back(DocaCapAnswer{});
    device.answers.back().symbol = "doca_rdma_cap_task_write_is_supported";
    doca.devices.push_back(device);
    auto found = device_capabilities(true, install, doca);
    REQUIRE(found.devices.size() == 1);
    CHECK(found.devices[0].pcie_address == "0000:03:00.0");
    CHECK(found.devices[0].library_capabilities.at("doca_rdma") ==
          std::vector<std::string>{"task_read", "task_write"});
    REQUIRE(found.devices[0].sources.size() == 1);
    CHECK(found.devices[0].sources[0].ref == "doca_rdma_cap_task_write_is_supported");
    REQUIRE(found.gaps.size() == 1);
    CHECK(found.gaps[0].reason == GapReason::untrusted);
}

}  // namespace
}  // namespace rdmi::contract
