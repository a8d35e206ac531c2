// Tests for run_process: argument vectors, cleaned environment, deadlines.
#include "process/process.hpp"

#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "support/deadline_slack.hpp"
#include "support/native_arch.hpp"
#include "support/temp_tree.hpp"
#include "support/without_landlock.hpp"

namespace rdmi {

using namespace std::chrono_literals;

namespace {

// True once `pid` no longer runs: gone, or a zombie waiting for its new parent to reap it.
bool ended_within(pid_t pid, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (true) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        if (!stat || !std::getline(stat, line)) return true;
        const auto close = line.rfind(')');
        if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z')
            return true;
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(10ms);
    }
}

}  // namespace

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
    CHECK(took < 200ms + test::kDeadlineSlack);
}

TEST_CASE("a timeout kills the grandchildren too, not only the command") {
    // The grandchild holds no pipe of ours, so only a kill of the whole process group ends it.
    const test::WithoutLandlock writes_pid_file;
    test::TempTree tree;
    const std::string pid_file = tree.host("/grandchild.pid");
    auto out = run_process(
        {"/bin/sh", "-c", "sleep 30 </dev/null >/dev/null 2>&1 & echo $! >" + pid_file + "; wait"},
        Deadline(1s));
    REQUIRE_FALSE(out.ok());
    CHECK(out.gap().reason == GapReason::timeout);
    std::ifstream in(pid_file);
    pid_t grandchild = 0;
    REQUIRE(static_cast<bool>(in >> grandchild));
    REQUIRE(grandchild > 1);
    const bool ended = ended_within(grandchild, 3s);
    if (!ended) ::kill(grandchild, SIGKILL);  // do not leave it behind when the check fails
    CHECK(ended);
}

TEST_CASE("the deadline still holds after the command closed its output") {
    // Both pipes reach end-of-file at once; the command lives on and must still be stopped.
    const auto start = std::chrono::steady_clock::now();
    auto out = run_process({"/bin/sh", "-c", "exec >&- 2>&-; sleep 5"}, Deadline(1s));
    const auto took = std::chrono::steady_clock::now() - start;
    REQUIRE_FALSE(out.ok());
    CHECK(out.gap().reason == GapReason::timeout);
    CHECK(out.gap().message == "/bin/sh: did not exit before the deadline");
    CHECK(took < 4s);
}

TEST_CASE("run_process refuses relative programs and names a missing one") {
    CHECK_FALSE(run_process({"echo"}, Deadline(1s)).ok());
    auto missing = run_process({"/nonexistent/doca_caps", "--version"}, Deadline(1s));
    if (!test::posix_spawn_reports_exec_failure()) {
        // qemu-user runs glibc's vfork-style spawn child as a fork, so the exec error the child
        // leaves for the parent never arrives: POSIX then allows only exit status 127.
        MESSAGE("posix_spawn here reports a failed exec as exit status 127 (a user-mode emulator)");
        REQUIRE(missing.ok());
        CHECK(missing->exit_code == 127);
        CHECK(missing->stdout_text.empty());
        return;
    }
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.gap().message.find("/nonexistent/doca_caps") == 0);
}

TEST_CASE("run_process bounds the output it keeps") {
    auto out = run_process({"/bin/sh", "-c", "head -c 100000 /dev/zero"}, Deadline(5s), 1000);
    REQUIRE(out.ok());
    CHECK(out->stdout_text.size() == 1000);
}

TEST_CASE("started commands run side by side and are collected in any order") {
    // Each waits for the other's mark: collected one after the other without running together,
    // the first would give up (exit 3). The marks are files: Landlock would refuse them.
    const test::WithoutLandlock writes_marks;
    test::TempTree tree;
    const std::string a = tree.host("/a");
    const std::string b = tree.host("/b");
    auto wait_for = [](const std::string& mine, const std::string& theirs) {
        return ": > " + mine + "; i=0; while [ ! -e " + theirs +
               " ]; do i=$((i + 1)); [ $i -gt 60 ] && exit 3; sleep 0.05; done; echo " + mine;
    };
    auto first = start_process({"/bin/sh", "-c", wait_for(a, b)});
    auto second = start_process({"/bin/sh", "-c", wait_for(b, a)});
    REQUIRE(first.ok());
    REQUIRE(second.ok());
    auto second_out = finish_process(second.value(), Deadline(10s));
    auto first_out = finish_process(first.value(), Deadline(10s));
    REQUIRE(first_out.ok());
    REQUIRE(second_out.ok());
    CHECK(first_out->exit_code == 0);
    CHECK(first_out->stdout_text == a + "\n");
    CHECK(second_out->exit_code == 0);
    CHECK(second_out->stdout_text == b + "\n");
    // Collected once: the second time is an error, not a wait on a pid that may be reused.
    auto again = finish_process(first.value(), Deadline(1s));
    REQUIRE_FALSE(again.ok());
    CHECK(again.gap().message == "/bin/sh: already collected");
}

TEST_CASE("a started command never collected is killed with its group when dropped") {
    const test::WithoutLandlock writes_pid_file;
    test::TempTree tree;
    const std::string pid_file = tree.host("/grandchild.pid");
    {
        auto started = start_process(
            {"/bin/sh", "-c",
             "sleep 30 </dev/null >/dev/null 2>&1 & echo $! >" + pid_file + "; wait"});
        REQUIRE(started.ok());
        // The command has written its grandchild's pid once the file holds a line.
        for (int i = 0; i < 300; ++i) {
            std::ifstream in(pid_file);
            std::string line;
            if (std::getline(in, line) && !line.empty()) break;
            std::this_thread::sleep_for(10ms);
        }
    }
    std::ifstream in(pid_file);
    pid_t grandchild = 0;
    REQUIRE(static_cast<bool>(in >> grandchild));
    REQUIRE(grandchild > 1);
    const bool ended = ended_within(grandchild, 3s);
    if (!ended) ::kill(grandchild, SIGKILL);
    CHECK(ended);
}

}  // namespace rdmi
