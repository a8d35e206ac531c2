// Tests for run_isolated: results, exceptions, crashes and hangs in the child.
#include "os/isolated_call.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

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
    CHECK(std::chrono::steady_clock::now() - start < 2s);
}

}  // namespace rdmi
