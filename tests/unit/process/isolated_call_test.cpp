// Tests for run_isolated: results, exceptions, crashes and hangs in the child.
#include "process/isolated_call.hpp"
#include "support/deadline_slack.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <stdexcept>

namespace rdmi {

using namespace std::chrono_literals;

TEST_CASE("run_isolated returns what the child produced") {
    auto r = run_isolated([] { return std::string("3.3.0105"); }, Deadline(5s), "probe");
    REQUIRE(r.ok());
    CHECK(*r == "3.3.0105");
}

TEST_CASE("run_isolated keeps the child's stdout away from ours") {
    auto r = run_isolated(
        [] {
            std::puts("vendor chatter");
            return std::string("ok");
        },
        Deadline(5s), "chatty");
    REQUIRE(r.ok());
    CHECK(*r == "ok");
}

TEST_CASE("run_isolated turns an exception into a gap") {
    auto r = run_isolated([]() -> std::string { throw std::runtime_error("no symbol"); },
                          Deadline(5s), "dlsym doca_version_runtime");
    REQUIRE_FALSE(r.ok());
    CHECK(r.gap().message == "dlsym doca_version_runtime: no symbol");
}

TEST_CASE("run_isolated survives a crashing child") {
    auto r = run_isolated(
        []() -> std::string {
            // SIGKILL, not SIGSEGV: sanitizers intercept SIGSEGV and exit normally.
            std::raise(SIGKILL);
            return "";
        },
        Deadline(5s), "crashy");
    REQUIRE_FALSE(r.ok());
    CHECK(r.gap().message.find("crashy: crashed with signal 9") == 0);
}

TEST_CASE("run_isolated returns on time when the child hangs") {
    const auto start = std::chrono::steady_clock::now();
    auto r = run_isolated(
        []() -> std::string {
            ::pause();
            return "";
        },
        Deadline(200ms), "ibv_open_device mlx5_0");
    REQUIRE_FALSE(r.ok());
    CHECK(r.gap().reason == GapReason::timeout);
    CHECK(std::chrono::steady_clock::now() - start < 200ms + test::kDeadlineSlack);
}

TEST_CASE("run_isolated kills an overrunning child that left its process group") {
    // The child is killed through its process group and by its pid. A vendor library may move
    // the child to another group (setpgid); the group kill then misses it, and a parent that
    // did not kill the pid itself would wait for the child's own end, deadline or not. A
    // contained child can do neither (its filter refuses setpgid, the pipe is closed in it):
    // this is the uncontained case.
    const ContainmentSettings saved = containment_settings();
    ContainmentSettings uncontained = saved;
    uncontained.applicable = false;
    configure_containment(uncontained);
    std::array<int, 2> report{-1, -1};
    REQUIRE(::pipe(report.data()) == 0);
    const auto start = std::chrono::steady_clock::now();
    auto r = run_isolated(
        [&report]() -> std::string {
            const char moved = ::setpgid(0, ::getpgid(::getppid())) == 0 ? 'm' : 'x';
            (void)!::write(report[1], &moved, 1);
            ::sleep(10);
            return "finished";
        },
        Deadline(1s), "ibv_open_device mlx5_0");
    const auto took = std::chrono::steady_clock::now() - start;
    configure_containment(saved);
    ::close(report[1]);
    char moved = 0;
    const auto got = ::read(report[0], &moved, 1);
    ::close(report[0]);
    REQUIRE(got == 1);
    REQUIRE(moved == 'm');  // the child really was in another group
    REQUIRE_FALSE(r.ok());
    CHECK(r.gap().reason == GapReason::timeout);
    CHECK(took < 5s);
}

}  // namespace rdmi
