// run_in_child(): fork, both output streams on pipes, read to the end, wait.
#include "support/child_output.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

namespace rdmi::test {
namespace {

std::string read_to_end(int fd) {
    std::string text;
    char buf[4096];
    ssize_t n = 0;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return text;
}

}  // namespace

ChildOutput run_in_child(const std::function<void()>& body) {
    int out[2];
    int err[2];
    REQUIRE(::pipe(out) == 0);
    REQUIRE(::pipe(err) == 0);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::dup2(out[1], STDOUT_FILENO);
        ::dup2(err[1], STDERR_FILENO);
        ::close(out[0]);
        ::close(err[0]);
        body();
        ::_exit(0);
    }
    ::close(out[1]);
    ::close(err[1]);
    ChildOutput r;
    r.out = read_to_end(out[0]);
    r.err = read_to_end(err[0]);
    ::waitpid(pid, &r.status, 0);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

int exit_status_in_child(const std::function<int()>& body) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) _exit(body());
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    return WEXITSTATUS(status);
}

}  // namespace rdmi::test
