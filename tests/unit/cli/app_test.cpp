// Tests for the never-crash boundary: anything a command throws becomes one line, exit 2 and,
// in --json mode, a valid error document.
#include "cli/app.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "support/temp_tree.hpp"

namespace rdmi::cli {
namespace {

struct Captured {
    int code = 0;
    std::string out;
    std::string err;
};

/// Runs guarded() with stdout and stderr sent to files, then reads them back.
Captured capture(const std::function<int()>& body, bool json) {
    test::TempTree tree;
    std::fflush(stdout);
    std::fflush(stderr);
    const int saved_out = ::dup(STDOUT_FILENO);
    const int saved_err = ::dup(STDERR_FILENO);
    const int out_fd = ::open(tree.host("/out").c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
    const int err_fd = ::open(tree.host("/err").c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    Captured result;
    result.code = guarded(body, json);
    std::fflush(stdout);
    std::fflush(stderr);
    ::dup2(saved_out, STDOUT_FILENO);
    ::dup2(saved_err, STDERR_FILENO);
    for (int fd : {saved_out, saved_err, out_fd, err_fd}) ::close(fd);
    auto slurp = [&](const char* name) {
        std::ifstream in(tree.host(name));
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    result.out = slurp("/out");
    result.err = slurp("/err");
    return result;
}

}  // namespace

TEST_CASE("the boundary passes a normal exit code through untouched") {
    auto r = capture([] { return 3; }, true);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.empty());
}

TEST_CASE("an exception becomes one line on stderr and a valid error document") {
    auto r = capture([]() -> int { throw std::runtime_error("broken\nsecond line"); }, true);
    CHECK(r.code == 2);
    CHECK(r.err == "rdmi-probe: internal error: broken second line\n");
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["schema"] == "urn:rdmi-probe:schema:error");
    CHECK(doc["error"]["exit_code"] == 2);
    CHECK(doc["error"]["message"] == "internal error: broken second line");
}

TEST_CASE("a non-standard exception is caught too") {
    auto r = capture([]() -> int { throw 42; }, false);  // NOLINT(hicpp-exception-baseclass)
    CHECK(r.code == 2);
    CHECK(r.err == "rdmi-probe: internal error: unknown exception\n");
    CHECK(r.out.empty());
}

TEST_CASE("out of memory is reported without allocating, still as valid JSON") {
    auto r = capture([]() -> int { throw std::bad_alloc(); }, true);
    CHECK(r.code == 2);
    CHECK(
        r.err ==
        "rdmi-probe: internal error: out of resources: memory: Cannot allocate memory (ENOMEM)\n");
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["error"]["message"] ==
          "internal error: out of resources: memory: Cannot allocate memory (ENOMEM)");
}

TEST_CASE("a thread that could not be started is exhaustion, naming EAGAIN") {
    auto r = capture(
        []() -> int {
            throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                                    "thread");
        },
        true);
    CHECK(r.code == 2);
    CHECK(r.err.find("internal error: out of resources: ") != std::string::npos);
    CHECK(r.err.find("(EAGAIN)") != std::string::npos);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["error"]["exit_code"] == 2);
}

}  // namespace rdmi::cli
