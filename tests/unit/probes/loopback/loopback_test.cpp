// The loopback orchestration driven through the lifecycle-enforcing fake DOCA: every level, a
// failure injected at every DOCA call in turn, a kernel that never completes, a corrupted write.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "loopback_fake.hpp"

namespace rdmi {

using namespace std::chrono_literals;
using test::fake_options;
using test::FakeDoca;
using test::find_step;
using test::run_fake;

namespace {

std::vector<std::string> step_ids(const LoopbackVerdict& verdict) {
    std::vector<std::string> ids;
    for (const auto& step : verdict.steps) ids.push_back(step.id);
    return ids;
}

void check_clean(const FakeDoca& fake, const LoopbackVerdict& verdict) {
    INFO("last violation: " << fake.last_violation());
    CHECK(fake.violations() == 0);
    CHECK(fake.live() == 0);
    CHECK(verdict.teardown.errors.empty());
    CHECK(verdict.teardown.complete);
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) out.push_back(item);
    return out;
}

}  // namespace

TEST_CASE("loopback passes at every level and tears everything down") {
    auto& fake = FakeDoca::get();
    const std::map<int, std::vector<std::string>> expected{
        {0, {"load-libraries", "resolve-symbols", "load-plugin", "find-device"}},
        {1,
         {"load-libraries", "resolve-symbols", "load-plugin", "find-device", "open-device",
          "create-dpa"}},
        {2,
         {"load-libraries", "resolve-symbols", "load-plugin", "find-device", "open-device",
          "create-dpa", "empty-kernel"}},
        {3,
         {"load-libraries", "resolve-symbols", "load-plugin", "find-device", "open-device",
          "create-dpa", "empty-kernel", "completion-queues", "rdma-endpoints", "connect",
          "register-memory", "signal-event", "status-word", "dpa-clock", "write", "verify"}},
    };
    for (const auto& [level, ids] : expected) {
        const int requested = level;  // clang 14 lambdas cannot capture a binding
        CAPTURE(requested);
        fake.reset();
        const auto verdict = run_fake(fake_options(level));
        CHECK(verdict.result == Status::pass);
        CHECK(verdict.level_requested == level);
        CHECK(verdict.level_reached == level);
        CHECK(step_ids(verdict) == ids);
        CHECK_FALSE(verdict.failed_step.has_value());
        CHECK(verdict.notes.empty());
        REQUIRE(verdict.device.has_value());
        CHECK(verdict.device->ibdev == "mlx5_0");
        CHECK(verdict.device->pci_addr == "0000:08:00.0");
        CHECK(verdict.measurements.has_value() == (level == 3));
        check_clean(fake, verdict);
    }
}

TEST_CASE("loopback releases objects in reverse order of creation") {
    auto& fake = FakeDoca::get();
    fake.reset();
    const auto verdict = run_fake(fake_options(3));
    REQUIRE(verdict.result == Status::pass);
    const auto log = split(fake.call_log());
    REQUIRE(log.size() > 4);
    // Created first, so released last: the device list, then the device, then the DPA context.
    CHECK(log[log.size() - 1] == "doca_devinfo_destroy_list#1");
    CHECK(log[log.size() - 2] == "doca_dev_close#1");
    CHECK(log[log.size() - 3] == "doca_dpa_destroy#1");
    CHECK(verdict.teardown.released > 20);
}

TEST_CASE("loopback measures latency over iterations and bandwidth for large transfers") {
    auto& fake = FakeDoca::get();
    fake.reset();
    auto options = fake_options(3);
    options.iterations = 7;
    options.bytes = std::size_t{1} << 20;
    const auto verdict = run_fake(options);
    REQUIRE(verdict.result == Status::pass);
    REQUIRE(verdict.measurements.has_value());
    const auto& m = *verdict.measurements;
    CHECK(m.iterations == 7);
    CHECK(m.bytes == options.bytes);
    CHECK(m.latency_min_us <= m.latency_median_us);
    CHECK(m.latency_median_us <= m.latency_max_us);
    CHECK(m.bandwidth_mb_s.has_value());
    check_clean(fake, verdict);

    fake.reset();
    options.bytes = 4096;
    const auto small = run_fake(options);
    REQUIRE(small.measurements.has_value());
    CHECK_FALSE(small.measurements->bandwidth_mb_s.has_value());
}

// Records what a probe reports, as the CLI's status line would show it.
class RecordingProgress final : public Progress {
  public:
    void update(std::string_view what, std::size_t done, std::size_t total) override {
        updates.push_back(std::string(what) + " " + std::to_string(done) + "/" +
                          std::to_string(total));
    }
    void finish() override { ++finished; }
    std::vector<std::string> updates;
    int finished = 0;
};

TEST_CASE("loopback reports each step and each write iteration to the progress sink") {
    auto& fake = FakeDoca::get();
    fake.reset();
    auto options = fake_options(3);
    options.iterations = 3;
    RecordingProgress progress;
    loopback::StepJournal journal;
    journal.report_to(progress);
    const auto verdict =
        loopback::run_loopback_from_files({RDMI_TEST_FAKE_DOCA}, options, Deadline(5s), journal);
    REQUIRE(verdict.result == Status::pass);
    const auto& u = progress.updates;
    CHECK(std::find(u.begin(), u.end(), "loopback: load-libraries 0/0") != u.end());
    CHECK(std::find(u.begin(), u.end(), "loopback: open-device 0/0") != u.end());
    for (const char* line : {"loopback: write 0/3", "loopback: write 1/3", "loopback: write 2/3"})
        CHECK(std::find(u.begin(), u.end(), line) != u.end());
    CHECK(std::find(u.begin(), u.end(), "loopback: write 3/3") == u.end());
    check_clean(fake, verdict);
}

TEST_CASE("a failure injected at each DOCA call gives the right verdict and a full teardown") {
    auto& fake = FakeDoca::get();
    // The clock calibration launches until one launch lasts its target (wall time), so under
    // load a replay could make fewer calls than the recorded run and never reach the call to
    // fail: a clock kernel that takes longer than the target makes every run launch it once.
    const auto fixed_calibration = [&] { fake.set("clock_wall_us", "3000"); };
    fake.reset();
    fixed_calibration();
    auto options = fake_options(3);
    options.lifecycle_selftest = true;
    options.iterations = 2;
    REQUIRE(run_fake(options).result == Status::pass);
    const auto calls = split(fake.call_log());
    // Calls our code tolerates, calls that reject a device (skip), and the release calls.
    const std::set<std::string> tolerated{
        "doca_devinfo_get_pci_addr_str", "doca_devinfo_get_ibdev_name",
        "doca_devinfo_get_pci_func_type", "doca_devinfo_rep_cap_is_filter_net_supported",
        "doca_dpa_get_kernel_max_run_time"};
    const std::set<std::string> rejecting{
        "doca_dpa_cap_is_supported",
        "doca_rdma_cap_task_write_is_supported",
        "doca_sync_event_cap_is_export_to_dpa_supported",
        "doca_sync_event_cap_is_export_to_remote_net_supported",
        "doca_sync_event_cap_remote_net_is_create_from_export_supported",
        "doca_sync_event_cap_remote_net_is_export_to_dpa_supported"};
    const std::map<std::string, std::string> layer_of_step{{"find-device", "driver"},
                                                           {"open-device", "driver"},
                                                           {"create-dpa", "DPA"},
                                                           {"lifecycle-selftest", "RDMI"},
                                                           {"empty-kernel", "DPA"},
                                                           {"completion-queues", "DPA"},
                                                           {"rdma-endpoints", "verbs"},
                                                           {"connect", "verbs"},
                                                           {"register-memory", "verbs"},
                                                           {"signal-event", "DPA"},
                                                           {"status-word", "DPA"},
                                                           {"dpa-clock", "DPA"},
                                                           {"write", "DPA"}};
    int injected = 0;
    for (const auto& call : calls) {
        const std::string name = call.substr(0, call.find('#'));
        if (name == "doca_rdma_as_ctx" || name == "doca_rdmi_poster_as_ctx")
            continue;  // return a pointer, not an error
        CAPTURE(call);
        fake.reset();
        fixed_calibration();
        fake.set("fail", (call + "=6").c_str());  // DOCA_ERROR_INVALID_VALUE
        const auto verdict = run_fake(options);
        ++injected;
        const bool release = name.find("_stop") != std::string::npos ||
                             name.find("_destroy") != std::string::npos ||
                             name == "doca_dev_close" || name == "doca_dpa_mem_free";
        if (tolerated.count(name) != 0) {
            CHECK(verdict.result == Status::pass);
            check_clean(fake, verdict);
        } else if (rejecting.count(name) != 0) {
            CHECK(verdict.result == Status::skip);
            CHECK(verdict.reason.find("no DPA-capable PF") != std::string::npos);
            check_clean(fake, verdict);
        } else if (release) {
            // The object stays behind (the library refused to release it), and the verdict says so.
            REQUIRE(verdict.teardown.errors.size() >= 1);
            CHECK(verdict.teardown.errors.front().rfind(name + ": DOCA_ERROR_INVALID_VALUE", 0) ==
                  0);
        } else {
            CHECK(verdict.result == Status::fail);
            REQUIRE(verdict.failed_step.has_value());
            REQUIRE(verdict.error.has_value());
            CHECK(verdict.error->call.rfind(name, 0) == 0);
            CHECK(verdict.error->name == "DOCA_ERROR_INVALID_VALUE");
            CHECK(verdict.error->description == "fake DOCA: DOCA_ERROR_INVALID_VALUE");
            REQUIRE(verdict.layer.has_value());
            REQUIRE(layer_of_step.count(*verdict.failed_step) == 1);
            CHECK(to_string(*verdict.layer) == layer_of_step.at(*verdict.failed_step));
            CHECK(verdict.first_action == "re-check create/configure arguments");
            // Nothing runs after a failed step, except that a failed self-test lets the run go on.
            if (*verdict.failed_step != "lifecycle-selftest")
                CHECK(verdict.steps.back().id == *verdict.failed_step);
            check_clean(fake, verdict);
        }
    }
    CHECK(injected > 60);
}

TEST_CASE("a DOCA_ERROR_DRIVER anywhere is put in the driver layer") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("fail", "doca_rdma_connect#1=21");
    const auto verdict = run_fake(fake_options(3));
    CHECK(verdict.result == Status::fail);
    CHECK(verdict.failed_step == "connect");
    REQUIRE(verdict.layer.has_value());
    CHECK(*verdict.layer == Layer::driver);
    CHECK(verdict.first_action == "stop; capture dmesg and device state; not an RDMI problem");
    CHECK_FALSE(verdict.notes.empty());
    check_clean(fake, verdict);
}

TEST_CASE("a kernel that never completes times out on the wall clock and still tears down") {
    auto& fake = FakeDoca::get();
    const std::map<int, std::pair<const char*, const char*>> cases{{2, {"never", "empty-kernel"}},
                                                                   {3, {"write_never", "write"}}};
    for (const auto& [level, setup] : cases) {
        const auto& [mode, step_id] = setup;
        const int requested = level;  // clang 14 lambdas cannot capture a binding
        CAPTURE(requested);
        fake.reset();
        fake.set("kernel", mode);
        const auto start = std::chrono::steady_clock::now();
        const auto verdict = run_fake(fake_options(level), 300ms);
        CHECK(std::chrono::steady_clock::now() - start < 3s);
        CHECK(verdict.result == Status::fail);
        CHECK(verdict.failed_step == step_id);
        const auto* step = find_step(verdict, step_id);
        REQUIRE(step != nullptr);
        CHECK(step->outcome == StepOutcome::timeout);
        CHECK(step->duration_ms >= 250);
        CHECK(verdict.first_action.find("deadline") != std::string::npos);
        check_clean(fake, verdict);
    }
}

TEST_CASE("a corrupted destination fails with the offset of the first mismatch") {
    auto& fake = FakeDoca::get();
    for (long offset : {0L, 100L, 4095L}) {
        CAPTURE(offset);
        fake.reset();
        fake.set("corrupt", std::to_string(offset).c_str());
        const auto verdict = run_fake(fake_options(3));
        CHECK(verdict.result == Status::fail);
        CHECK(verdict.failed_step == "verify");
        REQUIRE(verdict.mismatch_offset.has_value());
        CHECK(*verdict.mismatch_offset == static_cast<std::size_t>(offset));
        CHECK(verdict.reason.find("at byte " + std::to_string(offset)) != std::string::npos);
        CHECK(*verdict.layer == Layer::dpa);
        CHECK_FALSE(verdict.notes.empty());
        CHECK(verdict.level_reached == 2);
        check_clean(fake, verdict);
    }
}

TEST_CASE("the kernel's status word and the DPA's fatal error fail the run") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("kernel", "status=2");
    auto verdict = run_fake(fake_options(3));
    CHECK(verdict.failed_step == "write");
    CHECK(verdict.reason.find("bounded wait for the RDMA signal") != std::string::npos);
    check_clean(fake, verdict);

    fake.reset();
    fake.set("kernel", "status=0");
    verdict = run_fake(fake_options(3));
    CHECK(verdict.reason.find("did not run to its end") != std::string::npos);
    check_clean(fake, verdict);

    fake.reset();
    fake.set("dpa_fatal", "1");
    verdict = run_fake(fake_options(3));
    CHECK(verdict.failed_step == "empty-kernel");
    REQUIRE(verdict.error.has_value());
    CHECK(verdict.error->call == "doca_dpa_peek_at_last_error");
    CHECK(verdict.error->name == "DOCA_ERROR_BAD_STATE");
    CHECK(verdict.first_action.find("fatal error") != std::string::npos);
    check_clean(fake, verdict);
}

TEST_CASE("device choice: first DPA-capable PF, --device by ibdev or PCI, skips otherwise") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("devices", "two");
    auto verdict = run_fake(fake_options(1));
    CHECK(verdict.result == Status::pass);
    CHECK(verdict.device->ibdev == "mlx5_1");

    for (const char* name : {"mlx5_1", "08:00.0", "0000:08:00.0"}) {
        CAPTURE(name);
        fake.reset();
        fake.set("devices", "two");
        auto options = fake_options(1);
        options.device = name;
        verdict = run_fake(options);
        CHECK(verdict.result == Status::pass);
        CHECK(verdict.device->ibdev == "mlx5_1");
    }

    fake.reset();
    fake.set("devices", "two");
    auto options = fake_options(1);
    options.device = "mlx5_0";
    verdict = run_fake(options);
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason ==
          "find-device: device mlx5_0 is not a DPA-capable DOCA device; mlx5_0 "
          "(0000:03:00.0): doca_dpa_cap_is_supported answered DOCA_ERROR_NOT_SUPPORTED (no DPA)");
    check_clean(fake, verdict);

    fake.reset();
    options.device = "mlx5_9";
    verdict = run_fake(options);
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason.find("not among the 1 DOCA devices") != std::string::npos);

    fake.reset();
    fake.set("devices", "none");
    verdict = run_fake(fake_options(3));
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason == "find-device: no DPA-capable PF among 0 DOCA device(s)");
    CHECK(verdict.level_reached == -1);
    check_clean(fake, verdict);

    fake.reset();
    fake.set("devices", "nodpa");
    verdict = run_fake(fake_options(3));
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.reason.find("mlx5_0 (0000:03:00.0): doca_dpa_cap_is_supported answered "
                              "DOCA_ERROR_NOT_SUPPORTED (no DPA)") != std::string::npos);
    check_clean(fake, verdict);
}

TEST_CASE("a plugin or library without the expected exports fails at level 0") {
    auto& fake = FakeDoca::get();
    fake.reset();
    auto options = fake_options(3);
    options.plugin_path = RDMI_TEST_FAKE_DOCA;  // a shared object, but not the plugin
    auto verdict = run_fake(options);
    CHECK(verdict.result == Status::fail);
    CHECK(verdict.failed_step == "load-plugin");
    CHECK(verdict.reason.find("does not export rdmi_probe_dpa_app") != std::string::npos);
    CHECK(*verdict.layer == Layer::install);
    CHECK(fake.live() == 0);

    loopback::StepJournal journal;
    verdict = loopback::run_loopback_from_files({RDMI_TEST_FAKE_PLUGIN}, fake_options(3),
                                                Deadline(1s), journal);
    CHECK(verdict.failed_step == "resolve-symbols");
    CHECK(*verdict.layer == Layer::version);
    CHECK(verdict.reason.find("doca_devinfo_create_list") != std::string::npos);

    loopback::StepJournal journal2;
    verdict = loopback::run_loopback_from_files({"/nonexistent/libdoca_common.so"}, fake_options(3),
                                                Deadline(1s), journal2);
    CHECK(verdict.failed_step == "load-libraries");
    CHECK(*verdict.layer == Layer::install);
}

}  // namespace rdmi

namespace rdmi {

TEST_CASE("a run without a single step is a skip that says nothing ran, never a pass") {
    LoopbackVerdict verdict;
    verdict.result = Status::pass;  // whatever an earlier pass left there is overwritten
    verdict.reason = "stale";
    loopback::finish_verdict(verdict);
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.level_reached == -1);
    CHECK(verdict.reason == "nothing ran");
    CHECK_FALSE(verdict.failed_step.has_value());
    CHECK(loopback_check(verdict).status == Status::skip);

    // One passing level-0 step is a pass at level 0: the empty case above is not "all pass".
    verdict.steps.push_back(LoopbackStep{"locate-libraries", 0, StepOutcome::pass, 0, "", {}});
    loopback::finish_verdict(verdict);
    CHECK(verdict.result == Status::pass);
    CHECK(verdict.level_reached == 0);
    CHECK(verdict.reason.rfind("level 0: ", 0) == 0);
}

}  // namespace rdmi
