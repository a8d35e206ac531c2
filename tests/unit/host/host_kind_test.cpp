// Tests for classify_host(): host vs BlueField and the BlueField mode, with evidence.
#include "host/host_kind.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "sysfs/devices.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi::host {

using sysfs::DeviceInventory;
using sysfs::Function;
using sysfs::FunctionKind;
using sysfs::NetDev;
using sysfs::scan_devices;
namespace {

bool has_fact(const std::vector<Evidence>& evidence, std::string_view fact) {
    return std::any_of(evidence.begin(), evidence.end(),
                       [&](const Evidence& e) { return e.fact == fact; });
}

HostClassification classify(std::string_view scenario) {
    const auto fs = test::sysfs_fixture(scenario);
    return classify_host(scan_platform(fs, std::nullopt), scan_devices(fs));
}

}  // namespace

TEST_CASE("classify_host: x86 host with a BlueField-3 in DPU mode") {
    const auto c = classify("bf3-host-dpu");
    CHECK(c.host_kind == HostKind::host);
    CHECK(to_string(c.host_kind) == "host");
    CHECK(has_fact(c.host_kind_evidence, "architecture x86_64"));
    CHECK(has_fact(c.host_kind_evidence,
                   "BlueField network function 0000:03:00.0 (BlueField-3 integrated ConnectX-7 "
                   "network controller)"));
    CHECK(
        has_fact(c.host_kind_evidence,
                 "BlueField management function 0000:03:00.2 (seen from the host side of a DPU)"));
    CHECK_FALSE(c.bf_mode.has_value());
    CHECK(c.bf_mode_command == "mlxconfig -d 0000:03:00.0 q INTERNAL_CPU_MODEL");
    REQUIRE(c.bf_mode_gap.has_value());
    CHECK(c.bf_mode_gap->reason == GapReason::permission_denied);
    CHECK(c.bf_mode_gap->message.find("mlxconfig -d 0000:03:00.0 q INTERNAL_CPU_MODEL (not run)") !=
          std::string::npos);
}

TEST_CASE("classify_host: the BlueField Arm side in DPU mode") {
    const auto c = classify("bf3-arm");
    CHECK(c.host_kind == HostKind::bluefield);
    CHECK(has_fact(c.host_kind_evidence, "architecture aarch64"));
    CHECK(has_fact(c.host_kind_evidence, "BlueField ACPI platform device MLNXBF04:00"));
    CHECK(has_fact(c.host_kind_evidence,
                   "BFB release DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-6.24-10.prod"));
    CHECK(has_fact(c.host_kind_evidence, "BlueField kernel flavour 5.15.0-1042-bluefield"));
    REQUIRE(c.bf_mode.has_value());
    CHECK(*c.bf_mode == BfMode::dpu);
    CHECK(to_string(*c.bf_mode) == "dpu");
    CHECK_FALSE(c.bf_mode_gap.has_value());
    CHECK(has_fact(c.bf_mode_evidence, "scalable function mlx5_core.sf.2"));
    CHECK(has_fact(c.bf_mode_evidence, "representor pf0hpf (pcipf)"));
    CHECK(has_fact(c.bf_mode_evidence, "representor pf0vf0 (pcivf)"));
    CHECK_FALSE(has_fact(c.bf_mode_evidence, "representor p0 (physical)"));
}

TEST_CASE(
    "classify_host: an architecture guessed from a library directory does not overrule the "
    "BlueField markers") {
    const auto fs = test::sysfs_fixture("bf3-arm");
    PlatformFacts platform = scan_platform(fs, std::nullopt);
    const DeviceInventory inv = scan_devices(fs);
    // A partial Arm root without /proc and shell, but with an x86_64 multiarch directory.
    platform.architecture = Sourced<std::string>::of(
        "x86_64", Provenance{"derived",
                             "/usr/lib/x86_64-linux-gnu (the root's only multiarch "
                             "directory)"});
    platform.architecture_from_layout = true;
    auto c = classify_host(platform, inv);
    CHECK(c.host_kind == HostKind::bluefield);
    CHECK(has_fact(c.host_kind_evidence, "architecture x86_64"));
    // Read from the root's own /proc or shell, the machine decides (Arm cores are aarch64 only).
    platform.architecture_from_layout = false;
    c = classify_host(platform, inv);
    CHECK(c.host_kind == HostKind::host);
    // Without markers the guess stands.
    platform.architecture_from_layout = true;
    platform.bluefield_platform_devices = Sourced<std::vector<std::string>>::of({}, Provenance{});
    platform.bfb = Sourced<std::string>::missing(Gap{GapReason::not_found, "none"}, Provenance{});
    platform.kernel_release = Sourced<std::string>::of("6.1.0", Provenance{});
    CHECK(classify_host(platform, inv).host_kind == HostKind::host);
}

TEST_CASE("classify_host: Arm side without SFs or representors leaves the mode undecided") {
    const auto fs = test::sysfs_fixture("bf3-arm");
    const PlatformFacts platform = scan_platform(fs, std::nullopt);
    DeviceInventory inv = scan_devices(fs);
    std::erase_if(inv.functions, [](const Function& fn) { return fn.kind == FunctionKind::sf; });
    std::erase_if(inv.netdevs, [](const NetDev& nd) { return is_representor(nd); });
    const auto c = classify_host(platform, inv);
    CHECK(c.host_kind == HostKind::bluefield);
    CHECK_FALSE(c.bf_mode.has_value());
    REQUIRE(c.bf_mode_gap.has_value());
    CHECK(c.bf_mode_gap->reason == GapReason::permission_denied);
    CHECK(c.bf_mode_gap->message ==
          "no SF or representor is visible, so the mode cannot be told without privilege: "
          "mlxconfig -d 0000:03:00.0 q INTERNAL_CPU_MODEL (not run)");
    CHECK(
        has_fact(c.bf_mode_evidence, "BFB release DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-6.24-10.prod"));
}

TEST_CASE("classify_host: without the architecture, markers decide; nothing means unknown") {
    const auto fs = test::sysfs_fixture("bf3-arm");
    PlatformFacts platform = scan_platform(fs, std::nullopt);
    platform.architecture = Sourced<std::string>::missing(Gap{GapReason::not_found, "x"}, {});
    CHECK(classify_host(platform, scan_devices(fs)).host_kind == HostKind::bluefield);

    const auto host_fs = test::sysfs_fixture("bf3-host-dpu");
    PlatformFacts host = scan_platform(host_fs, std::nullopt);
    host.architecture = platform.architecture;
    CHECK(classify_host(host, scan_devices(host_fs)).host_kind == HostKind::host);  // 0xc2d5

    const auto empty_fs = test::sysfs_fixture("empty");
    PlatformFacts none = scan_platform(empty_fs, std::nullopt);
    none.architecture = platform.architecture;
    const auto c = classify_host(none, scan_devices(empty_fs));
    CHECK(c.host_kind == HostKind::unknown);
    CHECK(c.bf_mode_gap->reason == GapReason::not_applicable);
    CHECK(c.bf_mode_command.empty());
}

TEST_CASE("classify_host: any BlueField SoC management interface counts, the aux channel not") {
    const auto c = classify("nvidia-non-nics");
    // 0000:09:00.0 is a BlueField-2 SoC management interface (0xc2d3), .1 the DPU auxiliary
    // communication channel (0xc2d1): only the first is evidence of a DPU.
    CHECK(
        has_fact(c.host_kind_evidence,
                 "BlueField management function 0000:09:00.0 (seen from the host side of a DPU)"));
    CHECK_FALSE(
        has_fact(c.host_kind_evidence,
                 "BlueField management function 0000:09:00.1 (seen from the host side of a DPU)"));
    CHECK_FALSE(has_fact(c.host_kind_evidence,
                         "BlueField network function 0000:09:00.1 (BlueField DPU Family Auxiliary "
                         "Communication Channel)"));
    CHECK(c.bf_mode_command.empty());  // no BlueField network function to ask
}

TEST_CASE("classify_host: an aarch64 server with a BlueField card but no SoC markers is a host") {
    const auto fs = test::sysfs_fixture("bf3-host-dpu");
    PlatformFacts platform = scan_platform(fs, std::nullopt);
    platform.architecture = Sourced<std::string>::of("aarch64", Provenance{"api", "uname(2)"});
    CHECK(classify_host(platform, scan_devices(fs)).host_kind == HostKind::host);
}

}  // namespace rdmi::host
