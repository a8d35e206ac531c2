// Tests for run_process: argument vectors, cleaned environment, deadlines.
#include "os/process.hpp"

#include <doctest/doctest.h>

#include <chrono>

#include "support/temp_tree.hpp"

namespace rdmi {

using namespace std::chrono_literals;

TEST_CASE("run_process passes arguments verbatim, without a shell") {
    auto out = run_process({"/bin/echo", "a b", "$HOME", ";", "|"}, Deadline(5s));
    REQUIRE(out.ok());
    CHECK(out->exit_code == 0);
    CHECK(out->stdout_text == "a b $HOME ; |\n");
}

TEST_CASE("run_process gives the command a fixed, minimal environment") {
    ::setenv("RDMI_PROBE_SECRET", "leak", 1);
    auto out = run_process({"/usr/bin/env"}, Deadline(5s));
    REQUIRE(out.ok());
    CHECK(out->stdout_text == "PATH=/usr/sbin:/usr/bin:/sbin:/bin\nLC_ALL=C\n");
}

TEST_CASE("run_process reports exit codes and stderr") {
    auto out = run_process({"/bin/sh", "-c", "echo oops >&2; exit 7"}, Deadline(5s));
    REQUIRE(out.ok());
    CHECK(out->exit_code == 7);
    CHECK(out->stderr_text == "oops\n");
}

TEST_CASE("run_process kills a command that outlives its deadline, children included") {
    const auto start = std::chrono::steady_clock::now();
    auto out = run_process({"/bin/sh", "-c", "sleep 30 & sleep 30"}, Deadline(200ms));
    const auto took = std::chrono::steady_clock::now() - start;
    REQUIRE_FALSE(out.ok());
    CHECK(out.gap().reason == GapReason::timeout);
    CHECK(took < 2s);
}

TEST_CASE("run_process refuses relative programs and names a missing one") {
    CHECK_FALSE(run_process({"echo"}, Deadline(1s)).ok());
    auto missing = run_process({"/nonexistent/doca_caps", "--version"}, Deadline(1s));
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.gap().message.find("/nonexistent/doca_caps") == 0);
}

TEST_CASE("run_process bounds the output it keeps") {
    auto out = run_process({"/bin/sh", "-c", "head -c 100000 /dev/zero"}, Deadline(5s), 1000);
    REQUIRE(out.ok());
    CHECK(out->stdout_text.size() == 1000);
}

}  // namespace rdmi
