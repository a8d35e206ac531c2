// Tests for the run's watchdog: it ends an overrunning process with its report, and stays
// silent when disarmed in time. The firing cases run in a forked child (the watchdog _exits).
#include "cli/watchdog.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "os/activity.hpp"
#include "support/child_output.hpp"
#include "support/deadline_slack.hpp"

namespace rdmi::cli {
namespace {

using namespace std::chrono_literals;

using test::run_in_child;

}  // namespace

TEST_CASE("timeout_message names the bound and what was in progress") {
    activity::Snapshot none;
    CHECK(timeout_message(2, none) ==
          "timeout: the run did not finish within --timeout 2 s (+1 s grace); no file system "
          "call had started");
    activity::Snapshot stuck{true, true, "reading /etc/ld.so.cache"};
    CHECK(timeout_message(0.5, stuck) ==
          "timeout: the run did not finish within --timeout 0.5 s (+1 s grace); still reading "
          "/etc/ld.so.cache");
    // check --wait extends the run: the bound names both.
    CHECK(timeout_message(10, none, 300) ==
          "timeout: the run did not finish within --wait 300 s and --timeout 10 s (+1 s "
          "grace); no file system call had started");
    activity::Snapshot done{true, false, "listing /sys"};
    CHECK(timeout_message(10, done).find("not in a file system call (the last one was listing "
                                         "/sys)") != std::string::npos);
}

TEST_CASE("a watchdog that fires writes its document and ends the process with exit 2") {
    auto r = run_in_child([] {
        const activity::Scope stuck(activity::Kind::reading, "/mnt/nfs/hung.pc");
        const Watchdog watchdog(std::chrono::steady_clock::now() + 100ms, 0.1, true);
        std::this_thread::sleep_for(30s);  // the stuck read; the watchdog ends it
    });
    REQUIRE(WIFEXITED(r.status));
    CHECK(WEXITSTATUS(r.status) == 2);
    CHECK(r.seconds < 10);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["schema"] == "urn:rdmi-probe:schema:error");
    CHECK(doc["error"]["exit_code"] == 2);
    const std::string message = doc["error"]["message"];
    CHECK(message.find("still reading /mnt/nfs/hung.pc") != std::string::npos);
    CHECK(r.err == "rdmi-probe: " + message + "\n");
}

TEST_CASE("in text mode the watchdog writes one line on stderr and nothing on stdout") {
    auto r = run_in_child([] {
        const Watchdog watchdog(std::chrono::steady_clock::now() + 50ms, 0.05, false);
        std::this_thread::sleep_for(30s);
    });
    REQUIRE(WIFEXITED(r.status));
    CHECK(WEXITSTATUS(r.status) == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("rdmi-probe: timeout: the run did not finish within --timeout 0.05 s", 0) ==
          0);
    CHECK(r.err.find('\n') == r.err.size() - 1);
}

TEST_CASE("a disarmed watchdog never fires, and disarming costs no wait") {
    auto r = run_in_child([] {
        Watchdog watchdog(std::chrono::steady_clock::now() + 100ms, 0.1, true);
        watchdog.disarm();
        std::this_thread::sleep_for(300ms);  // past the deadline: nothing may happen
    });
    REQUIRE(WIFEXITED(r.status));
    CHECK(WEXITSTATUS(r.status) == 0);
    CHECK(r.out.empty());
    CHECK(r.err.empty());
    // In this process: created and destroyed well before its deadline, quickly.
    const auto start = std::chrono::steady_clock::now();
    { const Watchdog watchdog(std::chrono::steady_clock::now() + 1h, 3600, true); }
    CHECK(std::chrono::steady_clock::now() - start < test::kDeadlineSlack);
}

}  // namespace rdmi::cli
