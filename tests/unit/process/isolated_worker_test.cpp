// Tests for IsolatedWorker: one child for many calls; results, exceptions, crashes and hangs.
#include "process/isolated_worker.hpp"
#include "support/deadline_slack.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

namespace rdmi {
namespace {

using namespace std::chrono_literals;

std::string child_pid(std::string_view /*request*/) {
    return std::to_string(::getpid());
}

std::string echo_reversed(std::string_view request) {
    return {request.rbegin(), request.rend()};
}

std::string chatty(std::string_view /*request*/) {
    std::puts("vendor chatter");
    std::fflush(stdout);  // NOLINT(cert-err33-c)
    return "ok";
}

std::string throws(std::string_view request) {
    throw std::runtime_error(std::string(request));
}

std::string crashes(std::string_view /*request*/) {
    // SIGKILL, not SIGSEGV: sanitizers intercept SIGSEGV and exit normally.
    std::raise(SIGKILL);
    return "";
}

std::string hangs(std::string_view /*request*/) {
    ::pause();
    return "";
}

std::string exits(std::string_view /*request*/) {
    ::_exit(0);  // a vendor library that ends the process
}

// Waits (up to 5 s) until the path in the request exists, then answers "seen": a call that
// can only be answered when the caller went on working after sending it.
std::string waits_for_path(std::string_view request) {
    const std::string path(request);
    for (int i = 0; i < 500 && ::access(path.c_str(), F_OK) != 0; ++i)
        std::this_thread::sleep_for(10ms);
    return ::access(path.c_str(), F_OK) == 0 ? "seen" : "not seen";
}

bool running(pid_t pid) {
    return ::kill(pid, 0) == 0;
}

}  // namespace

TEST_CASE("the worker answers every call from one child") {
    IsolatedWorker worker;
    CHECK(worker.children_started() == 0);
    auto first = worker.call(&child_pid, "", Deadline(5s), "first");
    auto second = worker.call(&child_pid, "", Deadline(5s), "second");
    REQUIRE(first.ok());
    REQUIRE(second.ok());
    CHECK(*first == *second);
    CHECK(*first != std::to_string(::getpid()));
    CHECK(worker.children_started() == 1);
}

TEST_CASE("a call that needs a fresh child gets one only when the child has run something") {
    IsolatedWorker worker;
    auto first = worker.call(&child_pid, "", Deadline(5s), "first", IsolatedWorker::Child::fresh);
    auto reused = worker.call(&child_pid, "", Deadline(5s), "reused");
    auto fresh = worker.call(&child_pid, "", Deadline(5s), "fresh", IsolatedWorker::Child::fresh);
    REQUIRE(first.ok());
    REQUIRE(reused.ok());
    REQUIRE(fresh.ok());
    CHECK(*first == *reused);
    CHECK(*fresh != *reused);
    CHECK(worker.children_started() == 2);
}

TEST_CASE("the worker passes requests and answers of any size and byte") {
    IsolatedWorker worker;
    std::string request(3U << 20U, '\0');
    for (std::size_t i = 0; i < request.size(); ++i) request[i] = static_cast<char>(i * 7);
    auto answer = worker.call(&echo_reversed, request, Deadline(10s), "echo");
    REQUIRE(answer.ok());
    CHECK(*answer == std::string(request.rbegin(), request.rend()));
    auto empty = worker.call(&echo_reversed, "", Deadline(5s), "echo");
    REQUIRE(empty.ok());
    CHECK(empty->empty());
}

TEST_CASE("the worker keeps the child's stdout away from ours") {
    IsolatedWorker worker;
    auto r = worker.call(&chatty, "", Deadline(5s), "chatty");
    REQUIRE(r.ok());
    CHECK(*r == "ok");
}

TEST_CASE("an exception in the worker is the call's gap; the child serves the next call") {
    IsolatedWorker worker;
    auto r = worker.call(&throws, "no symbol", Deadline(5s), "dlsym doca_version_runtime");
    REQUIRE_FALSE(r.ok());
    CHECK(r.gap().reason == GapReason::error);
    CHECK(r.gap().message == "dlsym doca_version_runtime: no symbol");
    CHECK(worker.call(&child_pid, "", Deadline(5s), "after").ok());
    CHECK(worker.children_started() == 1);
}

TEST_CASE("a crash costs one call: the next one gets a fresh child") {
    IsolatedWorker worker;
    auto before = worker.call(&child_pid, "", Deadline(5s), "before");
    auto r = worker.call(&crashes, "", Deadline(5s), "crashy");
    REQUIRE_FALSE(r.ok());
    CHECK(r.gap().message.find("crashy: crashed with signal 9") == 0);
    auto after = worker.call(&child_pid, "", Deadline(5s), "after");
    REQUIRE(before.ok());
    REQUIRE(after.ok());
    CHECK(*before != *after);
    CHECK(worker.children_started() == 2);
}

TEST_CASE("a child that ends itself produced no result") {
    IsolatedWorker worker;
    auto r = worker.call(&exits, "", Deadline(5s), "exits");
    REQUIRE_FALSE(r.ok());
    CHECK(r.gap().message == "exits: produced no result");
    CHECK(worker.call(&child_pid, "", Deadline(5s), "after").ok());
}

TEST_CASE("a hung call returns on time, its child killed; the next call gets a fresh child") {
    IsolatedWorker worker;
    auto before = worker.call(&child_pid, "", Deadline(5s), "before");
    REQUIRE(before.ok());
    const pid_t hung = std::stoi(*before);
    const auto start = std::chrono::steady_clock::now();
    auto r = worker.call(&hangs, "", Deadline(200ms), "ibv_open_device mlx5_0");
    REQUIRE_FALSE(r.ok());
    CHECK(r.gap().reason == GapReason::timeout);
    CHECK(r.gap().message == "ibv_open_device mlx5_0: did not return before the deadline");
    CHECK(std::chrono::steady_clock::now() - start < 200ms + test::kDeadlineSlack);
    CHECK_FALSE(running(hung));  // killed and reaped
    auto after = worker.call(&child_pid, "", Deadline(5s), "after");
    REQUIRE(after.ok());
    CHECK(*after != *before);
}

TEST_CASE("destroying the worker ends its child") {
    pid_t child = 0;
    {
        IsolatedWorker worker;
        auto r = worker.call(&child_pid, "", Deadline(5s), "pid");
        REQUIRE(r.ok());
        child = std::stoi(*r);
        CHECK(running(child));
    }
    CHECK_FALSE(running(child));  // killed and reaped, not a zombie
}

TEST_CASE("a released worker's child is killed at once and reaped later") {
    IsolatedWorker worker;
    auto first = worker.call(&child_pid, "", Deadline(5s), "pid");
    REQUIRE(first.ok());
    const pid_t child = std::stoi(*first);
    worker.release();
    // Killed without being waited for: it becomes a zombie of this process, still unreaped.
    siginfo_t info{};
    REQUIRE(::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT) == 0);
    CHECK(info.si_code == CLD_KILLED);
    CHECK(info.si_status == SIGKILL);
    // The next call reaps it and starts a fresh child.
    auto second = worker.call(&child_pid, "", Deadline(5s), "pid again");
    REQUIRE(second.ok());
    CHECK(*second != *first);
    CHECK(worker.children_started() == 2);
    CHECK(::waitpid(child, nullptr, WNOHANG) == -1);  // already reaped: not our child any more
    const pid_t second_child = std::stoi(*second);
    worker.release();
    worker.release();  // twice is harmless
    REQUIRE(::waitid(P_PID, static_cast<id_t>(second_child), &info, WEXITED | WNOWAIT) == 0);
}

TEST_CASE("destroying a released worker reaps its child") {
    pid_t child = 0;
    {
        IsolatedWorker worker;
        worker.release();  // before any child: nothing to end
        auto r = worker.call(&child_pid, "", Deadline(5s), "pid");
        REQUIRE(r.ok());
        child = std::stoi(*r);
        worker.release();
    }
    CHECK(::waitpid(child, nullptr, WNOHANG) == -1);  // reaped, not left a zombie
    CHECK_FALSE(running(child));
}

TEST_CASE("a sent call runs while the caller goes on; receive takes its answer") {
    IsolatedWorker worker;
    char dir_template[] = "/tmp/rdmi-worker-test.XXXXXX";
    REQUIRE(::mkdtemp(dir_template) != nullptr);
    const std::string flag = std::string(dir_template) + "/go";
    // Were send to wait for the answer, the flag would only be made after the child gave up.
    const auto sent = worker.send(&waits_for_path, flag, Deadline(10s), "listing");
    std::FILE* made = std::fopen(flag.c_str(), "w");
    REQUIRE(made != nullptr);
    std::fclose(made);  // NOLINT(cert-err33-c)
    auto answer = worker.receive(sent);
    REQUIRE(answer.ok());
    CHECK(*answer == "seen");
    CHECK(worker.children_started() == 1);
    ::unlink(flag.c_str());
    ::rmdir(dir_template);
    // An answer is taken once.
    auto again = worker.receive(sent);
    REQUIRE_FALSE(again.ok());
    CHECK(again.gap().message == "the isolated worker has no call awaiting this answer");
}

TEST_CASE("a call made while another is in flight keeps the first one's answer for it") {
    IsolatedWorker worker;
    const auto first = worker.send(&echo_reversed, "abc", Deadline(5s), "first");
    const auto second = worker.send(&echo_reversed, "xyz", Deadline(5s), "second");
    auto third = worker.call(&echo_reversed, "123", Deadline(5s), "third");
    REQUIRE(third.ok());
    CHECK(*third == "321");
    // Taken in any order, each answer is its own call's.
    auto second_answer = worker.receive(second);
    auto first_answer = worker.receive(first);
    REQUIRE(first_answer.ok());
    REQUIRE(second_answer.ok());
    CHECK(*first_answer == "cba");
    CHECK(*second_answer == "zyx");
    CHECK(worker.children_started() == 1);
}

TEST_CASE("a sent call outliving its deadline is a timeout when received") {
    IsolatedWorker worker;
    const auto sent = worker.send(&hangs, "", Deadline(200ms), "ibv_get_device_list");
    auto answer = worker.receive(sent);
    REQUIRE_FALSE(answer.ok());
    CHECK(answer.gap().reason == GapReason::timeout);
    CHECK(answer.gap().message == "ibv_get_device_list: did not return before the deadline");
    CHECK(worker.call(&echo_reversed, "ok", Deadline(5s), "after").ok());
}

TEST_CASE("a sent call whose child is released or replaced answers with a gap, not another's") {
    IsolatedWorker worker;
    const auto released = worker.send(&hangs, "", Deadline(5s), "released");
    worker.release();
    // A fresh child starts for this call; the released call's answer cannot come from it.
    auto after = worker.call(&echo_reversed, "ab", Deadline(5s), "after");
    REQUIRE(after.ok());
    CHECK(*after == "ba");
    auto answer = worker.receive(released);
    REQUIRE_FALSE(answer.ok());
    CHECK(answer.gap().message == "released: the worker was ended before it answered");

    // A call that wants a fresh child waits for the one in flight in the old child first.
    const auto in_flight = worker.send(&echo_reversed, "xy", Deadline(5s), "in flight");
    auto fresh = worker.call(&child_pid, "", Deadline(5s), "fresh", IsolatedWorker::Child::fresh);
    REQUIRE(fresh.ok());
    auto kept = worker.receive(in_flight);
    REQUIRE(kept.ok());
    CHECK(*kept == "yx");
    CHECK(worker.children_started() == 3);
}

}  // namespace rdmi
