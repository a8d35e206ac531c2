// Tests for the DOCA layer: which names are predicates, library selection, the wire format,
// and the fake DOCA libraries queried in-process.
#include <doctest/doctest.h>

#include <cstdlib>

#include "api/doca_caps_api.hpp"
#include "probes/doca_caps/doca_caps.hpp"
#include "support/native_arch.hpp"
#include "unit/context/wire_samples.hpp"

namespace rdmi {

TEST_CASE("classify_cap_symbol accepts only the one-argument families") {
    auto task = doca::classify_cap_symbol("doca_rdma_cap_task_write_is_supported");
    REQUIRE(task);
    CHECK(task->library == "rdma");
    CHECK(task->flag == "task_write");
    CHECK(doca::classify_cap_symbol("doca_dpa_cap_is_supported")->flag == "dpa");
    CHECK(doca::classify_cap_symbol("doca_sync_event_cap_is_export_to_dpa_supported")->flag ==
          "is_export_to_dpa");
    CHECK_FALSE(doca::classify_cap_symbol("doca_rdma_cap_transport_type_is_supported"));
    CHECK_FALSE(doca::classify_cap_symbol("doca_devinfo_cap_is_hotplug_manager_supported"));
    CHECK_FALSE(doca::classify_cap_symbol("doca_rdma_cap_get_max_message_size"));
    CHECK_FALSE(doca::classify_cap_symbol("doca_rdma_cap_task__is_supported"));
    CHECK_FALSE(doca::classify_cap_symbol("doca_rdma_cap_task_write_is_supported@@X"));
    auto list =
        doca::cap_symbols({"doca_rdma_cap_task_write_is_supported", "foo",
                           "doca_dpa_cap_is_supported", "doca_rdma_cap_task_write_is_supported"});
    REQUIRE(list.size() == 2);
    CHECK(list[0].symbol == "doca_dpa_cap_is_supported");
}

TEST_CASE("doca caps wire format round-trips and rejects garbage") {
    const DocaCapsFacts facts = test::sample_doca_caps();
    auto back = decode_doca_caps(encode_doca_caps(facts));
    REQUIRE(back.ok());
    CHECK(back->devices.at(0).supported.at("rdma") == facts.devices.at(0).supported.at("rdma"));
    CHECK(*back->devices.at(0).dpa);
    CHECK(back->devices.at(0).answers.at(0).error == "DOCA_ERROR_NOT_SUPPORTED");
    CHECK(back->devices.at(0).verbs->values.at(0).second == 5);
    CHECK(decode_doca_caps("{}").gap().reason == GapReason::malformed);
}

TEST_CASE("fake DOCA 3.3 in-process: discovery from .dynsym, canned devices, named errors") {
    // Loaded into this process: the libraries of the machine this test runs as.
    const std::string dir = std::string(RDMI_TEST_FIXTURES_DIR) +
                            "/native-prefixes/complete-3.3/lib/" +
                            std::string(test::kNativeTriplet) + "/";
    ::setenv("FAKE_DOCA_DEVICES", "1", 1);
    auto facts = query_doca_caps({dir + "libdoca_common.so.3", dir + "libdoca_dpa.so.3",
                                  dir + "libdoca_rdma.so.3", dir + "libdoca_verbs.so.3",
                                  dir + "libdoca_nothere.so.3"});
    ::unsetenv("FAKE_DOCA_DEVICES");
    CHECK(facts.library_gaps.size() == 1);
    CHECK(facts.error_names == "doca_error_get_name");
    CHECK(facts.predicates.size() == 7);  // dpa + six rdma tasks
    REQUIRE(facts.devices.size() == 3);
    CHECK(facts.devices[0].ibdev_name == "mlx5_0");
    CHECK(facts.devices[1].supported.at("rdma") ==
          std::vector<std::string>{"task_read", "task_receive", "task_send", "task_write"});
    CHECK(facts.devices[2].dpa == false);
    CHECK(facts.devices[2].answers.at(0).error == "DOCA_ERROR_NOT_SUPPORTED");
    REQUIRE(facts.devices[0].verbs);
    CHECK(facts.devices[0].verbs->values.at(0).second == 131072);
}

}  // namespace rdmi
