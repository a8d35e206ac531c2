// Tests for the bounded wait on a killed child: a child that exits is reaped, one that does not
// exit holds the caller no longer than asked.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "os/child_groups.hpp"

namespace rdmi {

TEST_CASE("reap_within reaps a child that exits, with its status") {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) ::_exit(7);
    int status = 0;
    REQUIRE(reap_within(child, status, 5000));
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 7);
    // Reaped already: nothing is left to wait for, and that is no hang either.
    CHECK(reap_within(child, status, 100));
}

TEST_CASE("reap_within gives up on a child that does not exit, after the time asked") {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::pause();  // stands for a child stuck in the kernel: it does not exit on its own
        ::_exit(0);
    }
    int status = 0;
    const auto start = std::chrono::steady_clock::now();
    CHECK_FALSE(reap_within(child, status, 200));
    const auto waited = std::chrono::steady_clock::now() - start;
    CHECK(waited >= std::chrono::milliseconds(200));
    CHECK(waited < std::chrono::seconds(5));
    ::kill(child, SIGKILL);
    REQUIRE(reap_within(child, status, 5000));
    CHECK(WIFSIGNALED(status));
}

}  // namespace rdmi
