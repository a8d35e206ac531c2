// The negative lifecycle self-test, both ways, on RDMI posters and on doca_rdma endpoints.
#include <doctest/doctest.h>

#include "loopback_fake.hpp"

namespace rdmi {

using namespace std::chrono_literals;
using test::fake_options;
using test::FakeDoca;
using test::find_step;

namespace {

/// Runs the orchestration with the fake's table, optionally hiding the RDMI functions as a DOCA
/// without libdoca_rdmi would.
LoopbackVerdict run_selftest(bool hide_rdmi, int level = 1) {
    auto loaded = doca::load_doca_dpa_api({RDMI_TEST_FAKE_DOCA});
    REQUIRE(loaded.ok());
    auto plugin = loopback::load_dpa_plugin(RDMI_TEST_FAKE_PLUGIN);
    REQUIRE(plugin.ok());
    doca::DocaDpaApi api = loaded->api;
    if (hide_rdmi) api.rdmi_poster_create = nullptr;
    auto options = fake_options(level);
    options.lifecycle_selftest = true;
    loopback::StepJournal journal;
    return loopback::run_loopback(api, plugin->plugin, options, Deadline(5s), journal);
}

}  // namespace

TEST_CASE("the self-test passes when the library refuses a completion attach after start") {
    auto& fake = FakeDoca::get();
    for (bool hide_rdmi : {false, true}) {
        CAPTURE(hide_rdmi);
        fake.reset();
        const auto verdict = run_selftest(hide_rdmi);
        CHECK(verdict.result == Status::pass);
        REQUIRE(verdict.selftest.has_value());
        CHECK(verdict.selftest->result == Status::pass);
        CHECK(verdict.selftest->objects == (hide_rdmi ? "doca_rdma" : "doca_rdmi_poster"));
        CHECK(verdict.selftest->expected == "DOCA_ERROR_BAD_STATE");
        CHECK(verdict.selftest->returned == "DOCA_ERROR_BAD_STATE");
        const auto* step = find_step(verdict, "lifecycle-selftest");
        REQUIRE(step != nullptr);
        CHECK(step->outcome == StepOutcome::pass);
        // Using RDMI objects rests on unconfirmed signatures, and the verdict says so.
        CHECK(verdict.notes.empty() == hide_rdmi);
        CHECK(fake.live() == 0);
        CHECK(fake.violations() == 0);
    }
}

TEST_CASE("the self-test fails when the library accepts a completion attach after start") {
    auto& fake = FakeDoca::get();
    for (bool hide_rdmi : {false, true}) {
        CAPTURE(hide_rdmi);
        fake.reset();
        fake.set("lenient", "1");
        const auto verdict = run_selftest(hide_rdmi, 3);
        CHECK(verdict.result == Status::fail);
        CHECK(verdict.failed_step == "lifecycle-selftest");
        REQUIRE(verdict.selftest.has_value());
        CHECK(verdict.selftest->result == Status::fail);
        CHECK(verdict.selftest->returned == "DOCA_SUCCESS");
        CHECK(verdict.selftest->message.find("does not enforce the documented lifecycle") !=
              std::string::npos);
        REQUIRE(verdict.layer.has_value());
        CHECK(*verdict.layer == (hide_rdmi ? Layer::verbs : Layer::rdmi));
        CHECK(verdict.first_action.find("does not enforce the documented lifecycle") !=
              std::string::npos);
        // The rest of the run still happened.
        CHECK(find_step(verdict, "verify") != nullptr);
        CHECK(fake.live() == 0);
        CHECK(fake.violations() == 0);
    }
}

TEST_CASE("the self-test is skipped at level 0 because it needs a DPA context") {
    auto& fake = FakeDoca::get();
    fake.reset();
    const auto verdict = run_selftest(false, 0);
    CHECK(verdict.result == Status::skip);
    const auto* step = find_step(verdict, "lifecycle-selftest");
    REQUIRE(step != nullptr);
    CHECK(step->outcome == StepOutcome::skip);
    CHECK(fake.live() == 0);
}

}  // namespace rdmi
