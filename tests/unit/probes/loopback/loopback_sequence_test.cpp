// The loopback's call sequence against what DOCA's headers and samples publish: the write's
// remote key comes from an exported and imported mmap, the initiator's completion is sized for
// every report of the run, capabilities are asked before any object exists, and the wait for a
// kernel is bounded by the DPA's kernel run-time limit. The fake DOCA refuses each mistake.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "loopback_fake.hpp"

namespace rdmi {

using namespace std::chrono_literals;
using test::fake_options;
using test::FakeDoca;
using test::find_step;
using test::run_fake;

namespace {

bool logged(const FakeDoca& fake, const std::string& call) {
    return fake.call_log().find(call + "#") != std::string::npos;
}

void check_clean(const FakeDoca& fake, const LoopbackVerdict& verdict) {
    INFO("last violation: " << fake.last_violation());
    CHECK(fake.violations() == 0);
    CHECK(fake.live() == 0);
    CHECK(verdict.teardown.errors.empty());
}

}  // namespace

TEST_CASE("the write's destination handle comes from an exported and imported mmap") {
    auto& fake = FakeDoca::get();
    fake.reset();
    const auto verdict = run_fake(fake_options(3));
    INFO(verdict.reason << " / " << fake.last_violation());
    CHECK(verdict.result == Status::pass);
    const std::string log = fake.call_log();
    const auto exported = log.find("doca_mmap_export_rdma#1");
    const auto imported = log.find("doca_mmap_create_from_export#1");
    const auto handle = log.find("doca_mmap_dev_get_dpa_handle#3");
    REQUIRE(exported != std::string::npos);
    REQUIRE(imported != std::string::npos);
    REQUIRE(handle != std::string::npos);
    CHECK(exported < imported);
    CHECK(imported < handle);
    const auto* step = find_step(verdict, "register-memory");
    REQUIRE(step != nullptr);
    CHECK(step->message.find("exported and imported") != std::string::npos);
    check_clean(fake, verdict);
}

TEST_CASE("a failing export or import fails register-memory and still tears down") {
    auto& fake = FakeDoca::get();
    for (const char* call : {"doca_mmap_export_rdma", "doca_mmap_create_from_export"}) {
        CAPTURE(call);
        fake.reset();
        fake.set("fail", (std::string(call) + "#1=4").c_str());
        const auto verdict = run_fake(fake_options(3));
        CHECK(verdict.result == Status::fail);
        CHECK(verdict.failed_step == "register-memory");
        REQUIRE(verdict.error.has_value());
        CHECK(verdict.error->call == call);
        CHECK(verdict.error->name == "DOCA_ERROR_NOT_SUPPORTED");
        check_clean(fake, verdict);
    }
}

TEST_CASE("the initiator's completion holds every report when nobody drains it") {
    auto& fake = FakeDoca::get();
    for (int iterations : {1, 8, 9, 20, 100}) {
        CAPTURE(iterations);
        fake.reset();  // drain=none: a kernel-launch kernel is assumed unable to poll
        auto options = fake_options(3);
        options.iterations = iterations;
        const auto verdict = run_fake(options);
        INFO(verdict.reason << " / " << fake.last_violation());
        CHECK(verdict.result == Status::pass);
        REQUIRE(verdict.measurements.has_value());
        CHECK(verdict.measurements->iterations == iterations);
        const auto* step = find_step(verdict, "completion-queues");
        REQUIRE(step != nullptr);
        CHECK(step->message.find("for " + std::to_string(iterations) + " iteration") !=
              std::string::npos);
        check_clean(fake, verdict);
    }
}

TEST_CASE("a completion the kernel can drain never fills, whatever the iterations") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("drain", "ok");
    auto options = fake_options(3);
    options.iterations = 50;
    const auto verdict = run_fake(options);
    CHECK(verdict.result == Status::pass);
    check_clean(fake, verdict);
}

TEST_CASE("a device without a needed capability is named with it before any object exists") {
    auto& fake = FakeDoca::get();
    const std::vector<std::string> caps{
        "doca_rdma_cap_task_write_is_supported",
        "doca_sync_event_cap_is_export_to_dpa_supported",
        "doca_sync_event_cap_is_export_to_remote_net_supported",
        "doca_sync_event_cap_remote_net_is_create_from_export_supported",
        "doca_sync_event_cap_remote_net_is_export_to_dpa_supported",
    };
    for (const auto& cap : caps) {
        CAPTURE(cap);
        fake.reset();
        fake.set("deny_cap", cap.c_str());
        const auto verdict = run_fake(fake_options(3));
        CHECK(verdict.result == Status::skip);
        CHECK(verdict.level_reached == -1);
        const auto* step = find_step(verdict, "find-device");
        REQUIRE(step != nullptr);
        CHECK(step->outcome == StepOutcome::skip);
        CHECK(step->message.find(cap + " answered DOCA_ERROR_NOT_SUPPORTED") != std::string::npos);
        CHECK_FALSE(logged(fake, "doca_dev_open"));
        check_clean(fake, verdict);
    }
}

TEST_CASE("the sync-event capabilities matter only to the write level") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("deny_cap", "doca_sync_event_cap_is_export_to_remote_net_supported");
    const auto verdict = run_fake(fake_options(2));
    CHECK(verdict.result == Status::pass);
    CHECK_FALSE(logged(fake, "doca_sync_event_cap_is_export_to_remote_net_supported"));
    check_clean(fake, verdict);
}

TEST_CASE("the kernel run-time limit is asked, stated, and bounds the wait for a launch") {
    auto& fake = FakeDoca::get();
    fake.reset();
    auto verdict = run_fake(fake_options(3));
    CHECK(verdict.result == Status::pass);
    const auto* dpa = find_step(verdict, "create-dpa");
    REQUIRE(dpa != nullptr);
    CHECK(dpa->message.find("after 12 s (doca_dpa_get_kernel_max_run_time)") != std::string::npos);
    const auto* write = find_step(verdict, "write");
    REQUIRE(write != nullptr);
    CHECK(write->message.find("kernel max run time (12 s) plus 1 s") != std::string::npos);
    check_clean(fake, verdict);

    // A limit of 0 s: the host gives a kernel that never completes 1 s, not the run's 10 s.
    fake.reset();
    fake.set("max_run_time", "0");
    fake.set("kernel", "write_never");
    const auto start = std::chrono::steady_clock::now();
    verdict = run_fake(fake_options(3), 10s);
    CHECK(std::chrono::steady_clock::now() - start < 5s);
    CHECK(verdict.failed_step == "write");
    CHECK(verdict.reason.find("within the kernel max run time (0 s) plus 1 s") !=
          std::string::npos);
    check_clean(fake, verdict);
}

TEST_CASE("the write kernel's wait is bounded in DPA timer ticks measured against the host") {
    auto& fake = FakeDoca::get();
    fake.reset();
    auto verdict = run_fake(fake_options(3));
    INFO(verdict.reason << " / " << fake.last_violation());
    CHECK(verdict.result == Status::pass);
    const auto* clock = find_step(verdict, "dpa-clock");
    REQUIRE(clock != nullptr);
    CHECK(clock->level == 3);
    CHECK(clock->message.find("DPA timer: at least ") != std::string::npos);
    CHECK(clock->message.find("the write kernel stops waiting after ") != std::string::npos);
    // Half the fake's 12 s limit is above the 1 s ceiling.
    CHECK(clock->message.find("at most 1e+03 ms") != std::string::npos);
    CHECK(fake.call_log().find("doca_dpa_kernel_launch_update_set#3") != std::string::npos);
    const auto* write = find_step(verdict, "write");
    REQUIRE(write != nullptr);
    CHECK(write->message.find("with a budget of ") != std::string::npos);
    check_clean(fake, verdict);

    // A limit of 1 s halves to 500 ms.
    fake.reset();
    fake.set("max_run_time", "1");
    verdict = run_fake(fake_options(3));
    clock = find_step(verdict, "dpa-clock");
    REQUIRE(clock != nullptr);
    CHECK(clock->message.find("at most 500 ms") != std::string::npos);
    check_clean(fake, verdict);
}

TEST_CASE("a DPA timer that does not advance leaves the poll count as the only bound") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("clock", "0");
    const auto verdict = run_fake(fake_options(3));
    CHECK(verdict.result == Status::pass);
    const auto* clock = find_step(verdict, "dpa-clock");
    REQUIRE(clock != nullptr);
    CHECK(clock->outcome == StepOutcome::pass);
    // Ten launches unless one took 2 ms on a loaded machine.
    CHECK(clock->message.find("did not advance in ") != std::string::npos);
    const auto* write = find_step(verdict, "write");
    REQUIRE(write != nullptr);
    CHECK(write->message.find("no time bound (the DPA timer gave no usable count)") !=
          std::string::npos);
    check_clean(fake, verdict);
}

TEST_CASE("a write kernel that used up its tick budget fails the write, naming the budget") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("kernel", "status=4");
    const auto verdict = run_fake(fake_options(3));
    CHECK(verdict.result == Status::fail);
    CHECK(verdict.failed_step == "write");
    CHECK(verdict.reason.find("used up a budget of ") != std::string::npos);
    CHECK(verdict.reason.find(" DPA timer ticks") != std::string::npos);
}

TEST_CASE("a clock kernel that never completes stops the run at dpa-clock within the limit") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("max_run_time", "0");
    fake.set("kernel", "clock_never");
    const auto start = std::chrono::steady_clock::now();
    const auto verdict = run_fake(fake_options(3), 10s);
    CHECK(std::chrono::steady_clock::now() - start < 5s);
    CHECK(verdict.failed_step == "dpa-clock");
    CHECK(verdict.reason.find("timed launch 1 (16384 spins)") != std::string::npos);
    check_clean(fake, verdict);
}

TEST_CASE("on the BlueField Arm in DPU mode the run stops at level 1 with the SF reason") {
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("dpu_arm", "1");
    auto verdict = run_fake(fake_options(3));
    CHECK(verdict.result == Status::skip);
    CHECK(verdict.level_reached == 0);
    const auto* step = find_step(verdict, "open-device");
    REQUIRE(step != nullptr);
    CHECK(step->outcome == StepOutcome::skip);
    CHECK(step->level == 1);
    CHECK(step->message.find("doca_dpa_device_extend") != std::string::npos);
    CHECK(step->message.find("SF") != std::string::npos);
    CHECK_FALSE(logged(fake, "doca_dev_open"));
    check_clean(fake, verdict);

    // Level 0 asks nothing of the device: it still passes there.
    fake.reset();
    fake.set("dpu_arm", "1");
    verdict = run_fake(fake_options(0));
    CHECK(verdict.result == Status::pass);
    check_clean(fake, verdict);
}

TEST_CASE("a kernel run-time limit too large to add to the clock leaves the run's deadline") {
    // 2^64-1 s wrapped to 0 when 1 s was added, 2^63 s overflowed in milliseconds: the host
    // stopped waiting at once and blamed the limit.
    auto& fake = FakeDoca::get();
    for (const char* limit : {"18446744073709551615", "9223372036854775808"}) {
        CAPTURE(limit);
        fake.reset();
        fake.set("max_run_time", limit);
        fake.set("kernel", "write_never");
        const auto start = std::chrono::steady_clock::now();
        const auto verdict = run_fake(fake_options(3), 1s);
        CHECK(std::chrono::steady_clock::now() - start >= 900ms);
        CHECK(verdict.failed_step == "write");
        CHECK(verdict.reason.find("did not arrive before the deadline") != std::string::npos);
        check_clean(fake, verdict);
    }
}

TEST_CASE("a DPA timer count that went backwards gives no rate, not an enormous one") {
    // FAKE_DOCA_CLOCK 2^64-1 makes the clock kernel's unsigned difference wrap, as a timer read
    // on another execution unit would: every count is above 2^63.
    auto& fake = FakeDoca::get();
    fake.reset();
    fake.set("clock", "18446744073709551615");
    const auto verdict = run_fake(fake_options(3));
    INFO(verdict.reason << " / " << fake.last_violation());
    CHECK(verdict.result == Status::pass);
    const auto* clock = find_step(verdict, "dpa-clock");
    REQUIRE(clock != nullptr);
    CHECK(clock->message.find("went backwards") != std::string::npos);
    CHECK(clock->message.find("ticks/s") == std::string::npos);
    const auto* write = find_step(verdict, "write");
    REQUIRE(write != nullptr);
    CHECK(write->message.find("no time bound (the DPA timer gave no usable count)") !=
          std::string::npos);
    check_clean(fake, verdict);
}

TEST_CASE("a status word the write kernel cannot have written is named in hex, not trusted") {
    auto& fake = FakeDoca::get();
    const std::vector<std::pair<std::string, std::string>> words{
        // A code of 0 with other bits set is not "still 0".
        {"0x100", "unexpected kernel status word 0x0000000000000100"},
        // Code OK or tick budget with bits above the last completion type: not the kernel's.
        {"0xffffffffffffff01", "unexpected kernel status word 0xffffffffffffff01"},
        {"0x10000000004", "unexpected kernel status word 0x0000010000000004"},
        {"0x105", "unexpected kernel status word 0x0000000000000105"},
        {"0", "the status word is still 0"},
        {"0xff00000204", "used up a budget of "},
    };
    for (const auto& entry : words) {
        const std::string& word = entry.first;  // clang 14 lambdas cannot capture a binding
        const std::string& reason = entry.second;
        CAPTURE(word);
        fake.reset();
        fake.set("kernel", ("status=" + word).c_str());
        const auto verdict = run_fake(fake_options(3));
        CHECK(verdict.result == Status::fail);
        CHECK(verdict.failed_step == "write");
        INFO(verdict.reason);
        CHECK(verdict.reason.find(reason) != std::string::npos);
        check_clean(fake, verdict);
    }
}

TEST_CASE("a run whose deadline passed by the clock step stops there as a timeout") {
    // Not as a write kernel that "used up a budget of 1 DPA timer ticks".
    auto& fake = FakeDoca::get();
    fake.reset();
    const auto verdict = run_fake(fake_options(3), 0ms);
    CHECK(verdict.failed_step == "dpa-clock");
    const auto* clock = find_step(verdict, "dpa-clock");
    REQUIRE(clock != nullptr);
    CHECK(clock->outcome == StepOutcome::timeout);
    CHECK(verdict.reason.find("no time is left for the write kernel's wait") != std::string::npos);
    const auto* write = find_step(verdict, "write");
    CHECK(write == nullptr);
    check_clean(fake, verdict);
}

}  // namespace rdmi
