// Tests for the verdict over a list of checks.
#include "core/check.hpp"

#include <doctest/doctest.h>

#include <initializer_list>
#include <vector>

namespace rdmi {
namespace {

constexpr FindingInfo kAnyCheck{"example", "test", "an example check", "fix it", Purposes::run};

}  // namespace

TEST_CASE("the overall status: fail outweighs skip, skip outweighs warn, info judges nothing") {
    auto with = [](std::initializer_list<Status> statuses) {
        std::vector<Check> checks;
        for (Status status : statuses) checks.push_back(Check{kAnyCheck, status, "", "", {}});
        return overall_status(checks);
    };
    CHECK(with({Status::pass, Status::info}) == Status::pass);
    CHECK(with({Status::warn, Status::info}) == Status::warn);
    CHECK(with({Status::warn, Status::skip}) == Status::skip);
    CHECK(with({Status::skip, Status::fail}) == Status::fail);
}

}  // namespace rdmi
