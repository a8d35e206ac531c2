// Tests for the one verdict over a list of checks and the one status-to-exit-code rule.
#include "cli/exit_codes.hpp"
#include "check/gate_findings.hpp"

#include <doctest/doctest.h>

namespace rdmi::cli {
namespace {

Check with(Status status) {
    return Check{finding::min_version, status, "", "", {}};
}

}  // namespace

TEST_CASE("the verdict: fail beats skip beats pass; info judges nothing") {
    std::vector<Check> checks{with(Status::pass), with(Status::info)};
    CHECK(overall_status(checks) == Status::pass);
    checks.push_back(with(Status::skip));
    CHECK(overall_status(checks) == Status::skip);
    checks.push_back(with(Status::fail));
    CHECK(overall_status(checks) == Status::fail);
    CHECK(overall_status({}) == Status::pass);
    CHECK(overall_status({with(Status::info)}) == Status::pass);
}

TEST_CASE("exit codes say what the result says") {
    CHECK(exit_code_for(Status::pass) == kExitOk);
    CHECK(exit_code_for(Status::info) == kExitOk);
    CHECK(exit_code_for(Status::fail) == kExitFailed);
    CHECK(exit_code_for(Status::skip) == kExitSkipped);
    // symbols documents exit 1 for fail and 0 otherwise.
    const ExitRule symbols{.skip_exits_ok = true};
    CHECK(exit_code_for(Status::skip, symbols) == kExitOk);
    CHECK(exit_code_for(Status::fail, symbols) == kExitFailed);
}

}  // namespace rdmi::cli
