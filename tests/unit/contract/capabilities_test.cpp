// Tests for the capability flag names and the capability discovery's gaps.
#include "contract/capabilities.hpp"

#include <doctest/doctest.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::contract {
namespace {

using namespace std::chrono_literals;

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

TEST_CASE("discovery under a root loads nothing and says so") {
    test::TempTree tree;
    auto fs = RootedFs::open(tree.root()).value();
    MapEnv env;
    spdlog::logger log("test", std::make_shared<spdlog::sinks::null_sink_st>());
    ProbeContext ctx{fs, env, log, Deadline(5s), 1s, std::nullopt, false};
    InstallFacts install;
    auto found = discover_device_capabilities(ctx, install);
    CHECK(found.devices.empty());
    REQUIRE(found.gaps.size() == 1);
    CHECK(found.gaps[0].reason == GapReason::not_applicable);
}

}  // namespace
}  // namespace rdmi::contract
