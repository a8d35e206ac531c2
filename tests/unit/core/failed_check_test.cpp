// Tests for failed(), the last step of a failing check.
#include "core/failed_check.hpp"

#include <doctest/doctest.h>

namespace rdmi {
namespace {

constexpr FindingInfo kFailingCheck{"example", "test", "an example check", "fix it", Purposes::run};

}  // namespace

TEST_CASE("failed() marks a check failed with its fix, and keeps its message and sources") {
    Check check{kFailingCheck, Status::info, "what is wrong", "", {{"file", "/etc/x"}}};
    const Check judged = failed(check, "do this");
    CHECK(judged.status == Status::fail);
    CHECK(judged.remediation == "do this");
    CHECK(judged.message == "what is wrong");
    REQUIRE(judged.sources.size() == 1);
    CHECK(judged.sources[0].ref == "/etc/x");
    CHECK(judged.id == FindingId(kFailingCheck));
}

}  // namespace rdmi
