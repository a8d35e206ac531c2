// The gate's judgements on hand-built facts: pass, fail and skip for each requirement kind.
#include "check/evaluate.hpp"

#include <doctest/doctest.h>

#include "probes/install/install_parts.hpp"
#include "probes/install/version_consistency.hpp"
#include "probes/symbols/symbols_findings.hpp"

namespace rdmi::gate {
namespace {

VersionSource source(const std::string& name, const std::string& raw) {
    VersionSource src;
    src.name = name;
    if (raw.empty()) {
        src.raw = Sourced<std::string>::missing({GapReason::not_found, name + ": not found"}, {});
    } else {
        src.raw = Sourced<std::string>::of(raw, {});
        src.version = parse_doca_version(raw);
    }
    return src;
}

// The four .pc versions (empty = absent), the runtime not applicable; agreed as match_versions.
InstallFacts install_of(const std::vector<std::string>& pcs, const std::string& agreed) {
    InstallFacts facts;
    facts.prefix = Sourced<std::string>::of("/opt/mellanox/doca", {});
    const char* names[] = {"doca-common", "doca-verbs", "doca-dpa", "doca-rdmi"};
    for (std::size_t i = 0; i < 4; ++i) {
        auto src = source(std::string(names[i]) + ".pc", pcs[i]);
        if (pcs[i].empty()) {
            facts.stack_versions.absent.push_back(src.name);
        } else if (pcs[i] != agreed) {
            facts.stack_versions.disagreeing.push_back(src.name);
        }
        facts.stack_versions.sources.push_back(src);
        ModuleFacts m;
        m.name = names[i];
        m.found = !pcs[i].empty();
        m.version = pcs[i];
        m.pc_path = "/x/" + std::string(names[i]) + ".pc";
        facts.stack.push_back(m);
    }
    if (!agreed.empty()) facts.stack_versions.agreed = parse_doca_version(agreed);
    facts.stack_versions.consistent = facts.stack_versions.disagreeing.empty();
    facts.contract_versions.sources = {facts.stack_versions.sources[0],
                                       source("applications/VERSION", agreed)};
    facts.contract_versions.agreed = facts.stack_versions.agreed;
    facts.contract_versions.consistent = !agreed.empty();
    return facts;
}

const std::vector<std::string> kGood = {"3.3.0105", "3.3.0105", "3.3.0105", "3.3.0105"};

Check only(const std::vector<Check>& checks) {
    REQUIRE(checks.size() == 1);
    return checks[0];
}

TEST_CASE("min/max/exact version on a consistent stack") {
    const auto facts = install_of(kGood, "3.3.0105");
    Policy p;
    p.min_version = "3.2.0";
    p.max_version = "3.3";
    p.exact_version = "3.3.0";
    auto checks = install_gate(p, facts);
    REQUIRE(checks.size() == 3);
    CHECK(checks[0].id == "min-version");
    CHECK(checks[0].status == Status::pass);
    CHECK(checks[0].message == "the RDMI stack is 3.3.0105, which satisfies >= 3.2.0");
    CHECK(checks[1].id == "max-version");
    CHECK(checks[1].status == Status::pass);  // 3.3 without a build includes every 3.3.0 build
    CHECK(checks[2].status == Status::pass);
    Policy newer;
    newer.min_version = "3.4";
    auto fail = only(install_gate(newer, facts));
    CHECK(fail.status == Status::fail);
    CHECK(fail.message == "the RDMI stack is 3.3.0105, which does not satisfy >= 3.4");
    CHECK(fail.remediation == "upgrade DOCA to 3.4 or newer");
    Policy build;
    build.exact_version = "3.3.0104";
    CHECK(only(install_gate(build, facts)).status == Status::fail);
    Policy older;
    older.max_version = "3.2.1";
    CHECK(only(install_gate(older, facts)).status == Status::fail);
}

TEST_CASE("a mismatched stack fails the version gate even when three modules satisfy it") {
    const auto facts = install_of({"3.3.0105", "3.3.0105", "3.2.1025", "3.3.0105"}, "3.3.0105");
    Policy p;
    p.min_version = "3.2.0";
    auto check = only(install_gate(p, facts));
    CHECK(check.status == Status::fail);
    CHECK(check.message ==
          "the RDMI stack is mismatched: doca-dpa.pc is 3.2.1025 while the rest is 3.3.0105; "
          "there is no single version to compare (required >= 3.2.0)");
    CHECK(check.remediation ==
          "install doca-dpa from DOCA 3.3.0105 (the four modules must come from one release)");
}

TEST_CASE("no DOCA: the version gate skips; a partial stack fails") {
    auto none = install_of({"", "", "", ""}, "");
    Policy p;
    p.min_version = "3.2";
    auto skip = only(install_gate(p, none));
    CHECK(skip.status == Status::skip);
    CHECK(skip.message.starts_with("no DOCA install"));
    auto partial = install_of({"3.3.0105", "3.3.0105", "3.3.0105", ""}, "3.3.0105");
    auto fail = only(install_gate(p, partial));
    CHECK(fail.status == Status::fail);
    CHECK(fail.message ==
          "the RDMI stack is incomplete: doca-rdmi.pc missing (the rest is 3.3.0105) (required >= "
          "3.2)");
}

TEST_CASE("an unreadable .pc skips instead of failing") {
    auto facts = install_of(kGood, "3.3.0105");
    // Unreadable: no text and no version, only the reason (a source with a version is present).
    auto& verbs = facts.stack_versions.sources[1];
    verbs.raw = Sourced<std::string>::missing({GapReason::permission_denied, "x: EACCES"}, {});
    verbs.version.reset();
    Policy p;
    p.min_version = "3.2";
    auto check = only(install_gate(p, facts));
    CHECK(check.status == Status::skip);
    CHECK(check.message.starts_with("doca-verbs.pc: unreadable (x: EACCES)"));
    CHECK(check.remediation == "rerun as a user who can read DOCA's pkg-config files");
}

TEST_CASE("module requirements") {
    const auto facts = install_of(kGood, "3.3.0105");
    Policy p;
    p.modules = {{"doca-verbs", ">=", "3.2"}, {"doca-dpa", "<", "3.3"}, {"doca-flow", "", ""}};
    auto checks = install_gate(p, facts);
    REQUIRE(checks.size() == 3);
    CHECK(checks[0].id == "module-doca-verbs");
    CHECK(checks[0].status == Status::pass);
    CHECK(checks[0].message == "doca-verbs >= 3.2 required; found doca-verbs 3.3.0105");
    CHECK(checks[1].status == Status::fail);
    CHECK(checks[2].id == "module-doca-flow");
    CHECK(checks[2].status == Status::fail);
    CHECK(checks[2].message == "doca-flow required; doca-flow is not installed");
    auto none = install_of({"", "", "", ""}, "");
    Policy one;
    one.modules = {{"doca-verbs", "", ""}};
    CHECK(only(install_gate(one, none)).status == Status::skip);
}

TEST_CASE("consistent-versions") {
    Policy p;
    p.require_consistent = true;
    auto good = only(install_gate(p, install_of(kGood, "3.3.0105")));
    CHECK(good.status == Status::pass);
    CHECK(good.id == "consistent-versions");
    auto contract = install_of(kGood, "3.3.0105");
    contract.contract_versions.sources[1] = source("applications/VERSION", "3.2.1025");
    contract.contract_versions.disagreeing = {"applications/VERSION"};
    auto fail = only(install_gate(p, contract));
    CHECK(fail.status == Status::fail);
    CHECK(fail.message ==
          "disagree: DOCA version sources disagree: applications/VERSION is 3.2.1025 "
          "while the rest say 3.3.0105");
    // An absent applications/VERSION leaves the contract's match incomplete: not consistent,
    // and not a failure either (skip), the same verdict env's version.consistent gives.
    auto lone = install_of(kGood, "3.3.0105");
    lone.contract_versions = install::match_versions(
        {lone.stack_versions.sources[0], source("applications/VERSION", "")});
    const auto skipped = only(install_gate(p, lone));
    CHECK(skipped.status == Status::skip);
    CHECK(skipped.message.find("applications/VERSION is absent") != std::string::npos);
    CHECK_FALSE(judge_consistency(lone).consistent);
}

TEST_CASE("an unparseable .pc version: --min-version and --require-module both skip, quoting it") {
    auto facts = install_of(kGood, "3.3.0105");
    facts.stack[3].version = "3.3.0105-rc1~beta";
    auto sources = facts.stack_versions.sources;
    sources[3] = source("doca-rdmi.pc", "3.3.0105-rc1~beta");
    facts.stack_versions = install::match_versions(sources);
    Policy p;
    p.min_version = "3.3";
    p.modules = {ModuleRequirement{"doca-rdmi", ">=", "3.3"}};
    const auto checks = install_gate(p, facts);
    REQUIRE(checks.size() == 2);
    for (const auto& check : checks) {
        CHECK(check.status == Status::skip);
        CHECK(check.message.find("'3.3.0105-rc1~beta' is not a DOCA version") != std::string::npos);
    }
    CHECK(checks[0].message.find("no DOCA install") == std::string::npos);
}

SymbolsFacts symbols_of() {
    SymbolsFacts facts;
    facts.library.soname = "libdoca_rdmi.so.3";
    auto verdict = [](const char* name, Stability stability, bool exported) {
        SymbolVerdict v;
        v.name = name;
        v.stability = stability;
        v.exported = exported;
        v.declared = true;
        return v;
    };
    facts.audit.symbols = {verdict("doca_rdmi_a", Stability::stable, true),
                           verdict("doca_rdmi_b", Stability::experimental, true),
                           verdict("doca_rdmi_c", Stability::unknown, true),
                           verdict("doca_rdmi_d", Stability::unknown, false)};
    facts.checks = {{finding::app_resolves, Status::pass, "ok", "", {}},
                    {finding::app_experimental, Status::fail, "2 experimental", "fix", {}}};
    return facts;
}

TEST_CASE("symbol and stable requirements") {
    Result<SymbolsFacts> facts = symbols_of();
    Policy p;
    p.symbols = {"doca_rdmi_b", "doca_rdmi_d"};
    p.stable = {"doca_rdmi_a", "doca_rdmi_b", "doca_rdmi_c", "doca_rdmi_zz"};
    auto checks = symbols_gate(p, facts);
    REQUIRE(checks.size() == 6);
    CHECK(checks[0].id == "symbol-doca_rdmi_b");
    CHECK(checks[0].status == Status::pass);
    CHECK(checks[0].message == "doca_rdmi_b is exported by libdoca_rdmi.so.3 (experimental)");
    CHECK(checks[1].status == Status::fail);
    CHECK(checks[1].message ==
          "doca_rdmi_d is not exported by libdoca_rdmi.so.3 (declared in a header only)");
    CHECK(checks[2].status == Status::pass);
    CHECK(checks[3].status == Status::fail);
    CHECK(checks[3].message == "doca_rdmi_b is exported by libdoca_rdmi.so.3 but experimental");
    CHECK(checks[4].status == Status::skip);
    CHECK(checks[5].status == Status::fail);
}

TEST_CASE("app checks come from the symbols probe; a probe gap skips everything") {
    Result<SymbolsFacts> facts = symbols_of();
    Policy p;
    p.app = "/app";
    CHECK(only(symbols_gate(p, facts)).id == "app-resolves");
    p.forbid_experimental = true;
    auto checks = symbols_gate(p, facts);
    REQUIRE(checks.size() == 2);
    CHECK(checks[1].status == Status::fail);
    Result<SymbolsFacts> gap = Gap{GapReason::not_found, "doca-rdmi: not found"};
    p.symbols = {"doca_rdmi_a"};
    for (const auto& c : symbols_gate(p, gap)) {
        CHECK(c.status == Status::skip);
        CHECK(c.message == "cannot be checked: doca-rdmi: not found");
    }
}

Policy hardware(std::optional<std::string> device, bool dpa, bool port) {
    Policy p;
    p.device = std::move(device);
    p.require_dpa = dpa;
    p.require_port_active = port;
    return p;
}

DevicesFacts devices_of() {
    DevicesFacts facts;
    DeviceSummary a;
    a.function = "0000:03:00.0";
    a.rdma_devices = {"mlx5_0"};
    a.port_state = "DOWN";
    a.dpa = Sourced<sysfs::DpaCapability>::of({sysfs::DpaSupport::no, ""}, {});
    DeviceSummary b;
    b.function = "0000:81:00.0";
    b.rdma_devices = {"mlx5_1"};
    b.port_state = "ACTIVE";
    b.port_active = true;
    b.dpa = Sourced<sysfs::DpaCapability>::of({sysfs::DpaSupport::yes, ""}, {});
    facts.summary = {a, b};
    return facts;
}

TEST_CASE("device, dpa and port-active") {
    const auto facts = devices_of();
    const Policy any = hardware("", true, true);
    auto checks = devices_gate(any, facts, false);
    REQUIRE(checks.size() == 3);
    for (const auto& c : checks) CHECK(c.status == Status::pass);
    CHECK(checks[0].message == "found 0000:03:00.0 (mlx5_0), 0000:81:00.0 (mlx5_1)");
    const Policy first = hardware("mlx5_0", true, true);
    checks = devices_gate(first, facts, false);
    CHECK(checks[0].status == Status::pass);
    CHECK(checks[1].status == Status::fail);
    CHECK(checks[1].message == "no DPA on 0000:03:00.0 (mlx5_0)");
    CHECK(checks[2].status == Status::fail);
    CHECK(checks[2].message == "no port is ACTIVE: mlx5_0 DOWN");
    const Policy missing = hardware("mlx5_9", false, false);
    auto absent = only(devices_gate(missing, facts, false));
    CHECK(absent.status == Status::fail);
    CHECK(absent.message ==
          "no device mlx5_9 found (present: 0000:03:00.0 (mlx5_0), 0000:81:00.0 (mlx5_1))");
}

TEST_CASE("DPA and an active port must be on one device") {
    auto facts = devices_of();
    // The DPA-capable function's port goes down; another function without DPA has one up.
    facts.summary[1].port_active = false;
    facts.summary[1].port_state = "DOWN";
    facts.summary[0].port_active = true;
    facts.summary[0].port_state = "ACTIVE";
    auto checks = devices_gate(hardware(std::nullopt, true, true), facts, false);
    REQUIRE(checks.size() == 2);
    CHECK(checks[0].status == Status::pass);
    CHECK(checks[1].status == Status::fail);
    CHECK(checks[1].message ==
          "no device has both DPA and an ACTIVE port; the DPA-capable ones: 0000:81:00.0 "
          "(mlx5_1) (no port is ACTIVE: mlx5_1 DOWN); an ACTIVE port only on 0000:03:00.0 "
          "(mlx5_0), which has no DPA");
    // Alone, --require-port-active still accepts any device's port.
    CHECK(only(devices_gate(hardware(std::nullopt, false, true), facts, false)).status ==
          Status::pass);
    // Both on one device: pass, naming it.
    facts.summary[1].port_active = true;
    facts.summary[1].port_state = "ACTIVE";
    checks = devices_gate(hardware(std::nullopt, true, true), facts, false);
    CHECK(checks[1].status == Status::pass);
    CHECK(checks[1].message == "DPA and an ACTIVE port on one device: 0000:81:00.0 (mlx5_1)");
}

TEST_CASE("unknown DPA and no PCI bus skip") {
    auto facts = devices_of();
    facts.summary[1].dpa =
        Sourced<sysfs::DpaCapability>::missing({GapReason::timeout, "doca: timed out"}, {});
    const Policy p = hardware(std::nullopt, true, false);
    auto dpa = only(devices_gate(p, facts, true));
    CHECK(dpa.status == Status::skip);
    CHECK(dpa.message == "DPA support cannot be determined: 0000:81:00.0: doca: timed out");
    facts.pci_bus_present = false;
    auto skip = only(devices_gate(p, facts, false));
    CHECK(skip.status == Status::skip);
    CHECK(skip.message == "cannot be checked: no /sys/bus/pci/devices under --root");
}

}  // namespace
}  // namespace rdmi::gate
