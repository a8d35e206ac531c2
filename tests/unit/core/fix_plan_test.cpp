// Tests for plan_fixes(): one step per remediation, the widest first, failures before skips.
#include "core/fix_plan.hpp"

#include <doctest/doctest.h>

namespace rdmi {
namespace {

Check make(FindingId id, Status status, std::string fix) {
    return Check{std::move(id), status, "message", std::move(fix), {}};
}

}  // namespace

TEST_CASE("one cause reported four times is one step resolving four checks, listed first") {
    const std::string path_fix = "export PKG_CONFIG_PATH=/opt/mellanox/doca/lib/pkgconfig";
    const std::vector<Check> checks = {
        make(Finding::rdmi_stack_versions, Status::fail, "install doca-dpa from DOCA 3.3.0047"),
        make(FindingId(Finding::module, "doca-common"), Status::fail, path_fix),
        make(FindingId(Finding::module, "doca-verbs"), Status::fail, path_fix),
        make(FindingId(Finding::module, "doca-dpa"), Status::fail, path_fix),
        make(FindingId(Finding::module, "doca-rdmi"), Status::fail, path_fix),
        make(Finding::rdmi_samples, Status::info, "install the samples"),
        make(Finding::dpacc, Status::pass, ""),
    };
    const auto steps = plan_fixes(checks);
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].action == path_fix);
    CHECK(steps[0].resolves == std::vector<std::string>{"module-doca-common", "module-doca-verbs",
                                                        "module-doca-dpa", "module-doca-rdmi"});
    CHECK(steps[0].fixes_failure);
    CHECK(steps[1].action == "install doca-dpa from DOCA 3.3.0047");
}

TEST_CASE("among equals a failure's fix comes before a skip's; checks without a fix are left out") {
    const std::vector<Check> checks = {
        make(Finding::contract_versions, Status::skip, "install applications/VERSION"),
        make(Finding::rdmi_headers, Status::fail, "reinstall the RDMI development package"),
        make(Finding::doca_caps, Status::skip, ""),
    };
    const auto steps = plan_fixes(checks);
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].action == "reinstall the RDMI development package");
    CHECK_FALSE(steps[1].fixes_failure);
    CHECK(plan_fixes({}).empty());
}

TEST_CASE("a step answers the union of the purposes of the checks it resolves") {
    const std::string reinstall = "reinstall the DOCA runtime";
    const std::vector<Check> checks = {
        make(Finding::dpacc, Status::fail, "install dpacc"),
        make(Finding::rdmi_headers, Status::fail, reinstall),
        make(Finding::uverbs_access, Status::fail, reinstall),
        make(Finding::driver_mlx5_ib, Status::skip, "modprobe mlx5_ib"),
    };
    const auto steps = plan_fixes(checks);
    REQUIRE(steps.size() == 3);
    CHECK(steps[0].action == reinstall);
    CHECK(steps[0].purposes == Purposes::both);
    CHECK(steps[1].action == "install dpacc");
    CHECK(steps[1].purposes == Purposes::build);
    CHECK(steps[2].purposes == Purposes::run);
}

}  // namespace rdmi
