// Tests for plan_fixes(): one step per remediation, preconditions first, then the widest, then
// failures before skips; each step with an id that names the remediation, not its words.
#include "core/fix_plan.hpp"
#include "probes/devices/devices_findings.hpp"
#include "probes/install/install_findings.hpp"

#include <doctest/doctest.h>

#include <algorithm>

namespace rdmi {
namespace {

Check make(FindingId id, Status status, std::string fix) {
    return Check{std::move(id), status, "message", std::move(fix), {}};
}

Check make(FindingId id, Status status, std::string fix, Remedy remedy) {
    Check check = make(std::move(id), status, std::move(fix));
    check.remedy = remedy;
    return check;
}

const std::string kInstallDoca = "install the DOCA SDK";
const std::string kRunOnNvidia = "run on a host with a BlueField-3";

// The no-NVIDIA, no-DOCA host as the probes report it: DOCA's checks first (ten of them), the
// device verdict after them.
std::vector<Check> no_nvidia_no_doca() {
    std::vector<Check> checks = {
        make(finding::doca_prefix, Status::fail, kInstallDoca, Remedy{"install-doca"})};
    for (const char* module : {"doca-common", "doca-verbs", "doca-dpa", "doca-rdmi"}) {
        checks.push_back(make(FindingId(finding::module, module), Status::fail, kInstallDoca,
                              Remedy{"install-doca"}));
    }
    checks.push_back(
        make(finding::rdmi_headers, Status::skip, kInstallDoca, Remedy{"install-doca"}));
    checks.push_back(
        make(finding::rdmi_dpa_device, Status::fail, kRunOnNvidia, Remedy{"nvidia-device", true}));
    return checks;
}

}  // namespace

TEST_CASE("one cause reported four times is one step resolving four checks, listed first") {
    const std::string path_fix = "export PKG_CONFIG_PATH=/opt/mellanox/doca/lib/pkgconfig";
    const std::vector<Check> checks = {
        make(finding::rdmi_stack_versions, Status::fail, "install doca-dpa from DOCA 3.3.0047"),
        make(FindingId(finding::module, "doca-common"), Status::fail, path_fix),
        make(FindingId(finding::module, "doca-verbs"), Status::fail, path_fix),
        make(FindingId(finding::module, "doca-dpa"), Status::fail, path_fix),
        make(FindingId(finding::module, "doca-rdmi"), Status::fail, path_fix),
        make(finding::rdmi_samples, Status::info, "install the samples"),
        make(finding::dpacc, Status::pass, ""),
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
        make(finding::contract_versions, Status::skip, "install applications/VERSION"),
        make(finding::rdmi_headers, Status::fail, "reinstall the RDMI development package"),
        make(finding::doca_caps, Status::skip, ""),
    };
    const auto steps = plan_fixes(checks);
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].action == "reinstall the RDMI development package");
    CHECK_FALSE(steps[1].fixes_failure);
    CHECK(plan_fixes({}).empty());
}

TEST_CASE("a step every other waits for comes first, however few checks it resolves") {
    const auto steps = plan_fixes(no_nvidia_no_doca());
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].action == kRunOnNvidia);
    CHECK(steps[0].precondition);
    CHECK(steps[0].resolves == std::vector<std::string>{"rdmi-dpa-device"});
    CHECK(steps[1].action == kInstallDoca);
    CHECK(steps[1].resolves.size() == 6);
    CHECK_FALSE(steps[1].precondition);
}

TEST_CASE("among preconditions and among the rest, the widest first, then discovery order") {
    const std::vector<Check> checks = {
        make(finding::dpacc, Status::fail, "install dpacc"),
        make(finding::rdmi_dpa_device, Status::skip, "use a BlueField-3",
             Remedy{"dpa-device", true}),
        make(finding::doca_caps, Status::fail, "install doca_caps"),
        make(finding::rdmi_samples, Status::fail, "install doca_caps"),
        make(finding::hugepages, Status::fail, "reserve hugepages"),
    };
    const auto steps = plan_fixes(checks);
    REQUIRE(steps.size() == 4);
    CHECK(steps[0].id == "dpa-device");
    CHECK(steps[1].id == "doca-caps");  // two checks
    CHECK(steps[2].id == "dpacc");      // then as found
    CHECK(steps[3].id == "hugepages");
}

TEST_CASE("a shared fix is named by its key, whatever its words and whichever check comes first") {
    // The same remediation on two hosts: another directory in its text, another set of checks.
    const std::vector<Check> host_a = {
        make(FindingId(finding::module, "doca-common"), Status::fail,
             "export PKG_CONFIG_PATH=/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig",
             Remedy{"pkg-config-path"}),
        make(FindingId(finding::module, "doca-rdmi"), Status::fail,
             "export PKG_CONFIG_PATH=/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig",
             Remedy{"pkg-config-path"}),
    };
    const std::vector<Check> host_b = {
        make(FindingId(finding::module, "doca-rdmi"), Status::fail,
             "export PKG_CONFIG_PATH=/opt/mellanox/doca/lib64/pkgconfig",
             Remedy{"pkg-config-path"}),
    };
    REQUIRE(plan_fixes(host_a).size() == 1);
    REQUIRE(plan_fixes(host_b).size() == 1);
    CHECK(plan_fixes(host_a)[0].id == "pkg-config-path");
    CHECK(plan_fixes(host_b)[0].id == "pkg-config-path");
}

TEST_CASE("a check's own fix is named after the check; ids stay when an earlier step goes") {
    std::vector<Check> checks = no_nvidia_no_doca();
    checks.push_back(make(finding::hugepages, Status::fail, "reserve 2M hugepages"));
    const auto before = plan_fixes(checks);
    REQUIRE(before.size() == 3);
    CHECK(before[0].id == "nvidia-device");
    CHECK(before[1].id == "install-doca");
    CHECK(before[2].id == "hugepages");
    // The device is there now: its step goes, the others keep their ids.
    checks.erase(std::remove_if(checks.begin(), checks.end(),
                                [](const Check& c) { return c.id == "rdmi-dpa-device"; }),
                 checks.end());
    const auto after = plan_fixes(checks);
    REQUIRE(after.size() == 2);
    CHECK(after[0].id == "install-doca");
    CHECK(after[1].id == "hugepages");
}

TEST_CASE("one check id with two different fixes gives two distinct step ids") {
    const std::vector<Check> checks = {
        make(finding::hugepages, Status::fail, "reserve 2M hugepages"),
        make(finding::hugepages, Status::fail, "mount hugetlbfs"),
    };
    const auto steps = plan_fixes(checks);
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].id == "hugepages");
    CHECK(steps[1].id == "hugepages#2");
}

TEST_CASE("step_number points a check at the step carrying its fix, and only a planned one") {
    const std::vector<Check> checks = no_nvidia_no_doca();
    const auto steps = plan_fixes(checks);
    CHECK(step_number(steps, checks.front()) == 2);  // install-doca
    CHECK(step_number(steps, checks.back()) == 1);   // nvidia-device
    // A warning's fix is not in the plan: its line keeps the text.
    CHECK(step_number(steps, make(finding::hugepages, Status::warn, kInstallDoca)) == 0);
    CHECK(step_number(steps, make(finding::hugepages, Status::fail, "")) == 0);
}

TEST_CASE("a step answers the union of the purposes of the checks it resolves") {
    const std::string reinstall = "reinstall the DOCA runtime";
    const std::vector<Check> checks = {
        make(finding::dpacc, Status::fail, "install dpacc"),
        make(finding::rdmi_headers, Status::fail, reinstall),
        make(finding::uverbs_access, Status::fail, reinstall),
        make(finding::driver_mlx5_ib, Status::skip, "modprobe mlx5_ib"),
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
