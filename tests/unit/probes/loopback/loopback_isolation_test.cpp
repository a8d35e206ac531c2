// The isolated run: a DOCA call that never returns, at several steps, must still give a verdict
// within the deadline plus a small margin; and the verdict's wire format round-trips.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "core/exhaustion.hpp"
#include "loopback_fake.hpp"
#include "support/deadline_slack.hpp"
#include "unit/context/wire_samples.hpp"

namespace rdmi {

using namespace std::chrono_literals;
using test::fake_options;
using test::FakeDoca;
using test::find_step;

TEST_CASE("a hung DOCA call is reported as a timeout of its step, on time") {
    auto& fake = FakeDoca::get();
    const std::pair<const char*, const char*> cases[] = {
        {"doca_dev_open", "open-device"},
        {"doca_dpa_start", "create-dpa"},
        {"doca_rdma_connect#2", "connect"},
        {"doca_dpa_kernel_launch_update_set#2", "dpa-clock"}};
    for (const auto& [call, step_id] : cases) {
        const auto& failing_call = call;  // clang 14 lambdas cannot capture a binding
        CAPTURE(failing_call);
        fake.reset();
        fake.set("hang", call);  // inherited by the forked child
        LoopbackVerdict so_far;
        so_far.steps.push_back({"locate-libraries", 0, StepOutcome::pass, 1.0, "fake", {}});
        const auto start = std::chrono::steady_clock::now();
        const auto verdict = loopback::run_loopback_isolated({RDMI_TEST_FAKE_DOCA}, fake_options(3),
                                                             Deadline(800ms), so_far);
        const auto took = std::chrono::steady_clock::now() - start;
        CHECK(took >= 700ms);
        CHECK(took < 800ms + test::kDeadlineSlack);
        CHECK(verdict.result == Status::fail);
        CHECK(verdict.failed_step == step_id);
        const auto* step = find_step(verdict, step_id);
        REQUIRE(step != nullptr);
        CHECK(step->outcome == StepOutcome::timeout);
        CHECK(verdict.steps.front().id == "locate-libraries");
        CHECK_FALSE(verdict.teardown.complete);
        CHECK(verdict.first_action.find("deadline") != std::string::npos);
    }
    CHECK(fake.live() == 0);  // the parent's fake never saw the child's objects
}

TEST_CASE("the isolated run passes through the fake and keeps the parent's steps") {
    auto& fake = FakeDoca::get();
    fake.reset();
    LoopbackVerdict so_far;
    so_far.steps.push_back({"locate-libraries", 0, StepOutcome::pass, 1.0, "fake", {}});
    so_far.steps.push_back({"locate-plugin", 0, StepOutcome::pass, 1.0, "fake", {}});
    so_far.plugin_path = RDMI_TEST_FAKE_PLUGIN;
    auto options = fake_options(3);
    options.iterations = 3;
    options.lifecycle_selftest = true;
    const auto verdict =
        loopback::run_loopback_isolated({RDMI_TEST_FAKE_DOCA}, options, Deadline(5s), so_far);
    CHECK(verdict.result == Status::pass);
    CHECK(verdict.level_reached == 3);
    CHECK(verdict.steps.size() == 19);
    CHECK(verdict.plugin_path == RDMI_TEST_FAKE_PLUGIN);
    REQUIRE(verdict.measurements.has_value());
    CHECK(verdict.measurements->iterations == 3);
    REQUIRE(verdict.selftest.has_value());
    CHECK(verdict.selftest->result == Status::pass);
    CHECK(verdict.teardown.complete);
    CHECK(verdict.teardown.errors.empty());
}

TEST_CASE("exhaustion on the loopback's worker thread reaches the caller, not abort()") {
    // In a child: before, the exception left the thread and std::terminate ended the process.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        try {
            (void)loopback::run_with_watchdog(
                [](loopback::StepJournal&) -> LoopbackVerdict {
                    throw ResourceExhausted("doca_dev_open", EMFILE);
                },
                Deadline(5s));
        } catch (const ResourceExhausted& e) {
            _exit(e.error() == EMFILE ? 0 : 2);
        }
        _exit(1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("the verdict's wire format round-trips and rejects garbage") {
    const LoopbackVerdict verdict = test::sample_loopback_verdict();
    auto decoded = loopback::decode_verdict(loopback::encode_verdict(verdict));
    REQUIRE(decoded.ok());
    CHECK(loopback::encode_verdict(*decoded) == loopback::encode_verdict(verdict));
    CHECK(decoded->result == Status::fail);
    CHECK(decoded->failed_step == "connect");
    CHECK(*decoded->layer == Layer::driver);

    for (const char* bad :
         {"", "{", "[]", R"({"steps": [{"id": 1}]})", R"({"steps": [], "level_requested": "x"})"}) {
        CAPTURE(bad);
        auto r = loopback::decode_verdict(bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.gap().reason == GapReason::malformed);
    }
}

}  // namespace rdmi
