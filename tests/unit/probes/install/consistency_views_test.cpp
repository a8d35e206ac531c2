// Property: every view of "consistent" gives the same answer on every combination of version
// sources — env's version.consistent (judge_consistency), the report's rdmi-stack-versions and
// contract-versions checks (derive_checks) and check --require-consistent (install_gate).
#include <doctest/doctest.h>

#include <random>

#include "check/evaluate.hpp"
#include "probes/install/install_findings.hpp"
#include "probes/install/install_parts.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi {
namespace {

// One generated source: a version text, or a gap of some reason.
VersionSource make_source(const std::string& name, int pick) {
    static const std::vector<std::string> texts = {
        "3.3.0105",     "3.3.0105",     "3.3.0105", "3.2.1025",  "3.3.0047",  "3.3.0105 ", "3.3.0",
        "3.3.0105-rc1", "3.3.0105~rc1", "",         "v3.3.0105", "03.3.0105", "3.3.105"};
    static const std::vector<GapReason> gaps = {
        GapReason::not_found, GapReason::not_installed, GapReason::permission_denied,
        GapReason::malformed, GapReason::timeout,       GapReason::not_applicable};
    const auto i = static_cast<std::size_t>(pick);
    if (i < texts.size()) {
        return VersionSource{name, Sourced<std::string>::of(texts[i], {"pkg-config", name}),
                             parse_doca_version(texts[i])};
    }
    return VersionSource{
        name,
        Sourced<std::string>::missing({gaps[(i - texts.size()) % gaps.size()], name + ": why"},
                                      {"file", name}),
        std::nullopt};
}

const Check& find(const std::vector<Check>& checks, const FindingInfo& id) {
    for (const auto& c : checks) {
        if (c.id == FindingId(id)) return c;
    }
    FAIL("no check " << FindingId(id).str());
    return checks.front();
}

}  // namespace

TEST_CASE("env report and check agree on consistent over 20000 generated installs") {
    std::mt19937 rng(20261201);  // fixed: a failure reproduces
    // Mostly the healthy version (so that every source agreeing is common), else any pick; a
    // .pc is never "not applicable" (picks 0-17), the live-only sources often are (18).
    std::uniform_int_distribution<int> percent(0, 99);
    std::uniform_int_distribution<int> any_pc(0, 17);
    std::uniform_int_distribution<int> any(0, 18);
    auto pc = [&] { return percent(rng) < 80 ? 0 : any_pc(rng); };
    auto live = [&] { return percent(rng) < 50 ? 18 : percent(rng) < 60 ? 0 : any(rng); };
    int consistent_seen = 0;
    for (int n = 0; n < 20000; ++n) {
        std::vector<VersionSource> stack;
        for (const char* name : {"doca-common.pc", "doca-verbs.pc", "doca-dpa.pc", "doca-rdmi.pc"})
            stack.push_back(make_source(name, pc()));
        stack.push_back(make_source("runtime", live()));
        // The contract's doca-common.pc is the stack's (one file read once).
        std::vector<VersionSource> contract = {stack[0], make_source("applications/VERSION", pc()),
                                               make_source("doca_caps --version", live()),
                                               make_source("bfb", live())};
        InstallFacts facts;
        facts.prefix = Sourced<std::string>::of("/opt/mellanox/doca", {"derived", "default"});
        // DOCA's prefix found or not, its layout known or not: the version verdicts must not
        // depend on where the prefix check looked.
        facts.prefix_exists = (n % 3) != 0;
        facts.layout = (n % 5) == 0 ? DocaLayout::none : DocaLayout::multiarch;
        facts.stack_versions = install::match_versions(stack);
        facts.contract_versions = install::match_versions(contract);

        const Consistency env = judge_consistency(facts);
        const auto report = install::derive_checks(facts);
        const Check& stack_check = find(report, finding::rdmi_stack_versions);
        const Check& contract_check = find(report, finding::contract_versions);
        gate::Policy policy;
        policy.require_consistent = true;
        const auto gate = gate::install_gate(policy, facts);
        REQUIRE(gate.size() == 1);

        const bool report_says =
            stack_check.status == Status::pass && contract_check.status == Status::pass;
        INFO("case " << n << ": " << env.reason << " | report: " << stack_check.message << " / "
                     << contract_check.message << " | check: " << gate[0].message);
        CHECK(env.consistent == report_says);
        CHECK(env.consistent == (gate[0].status == Status::pass));
        // A disagreement is a failure in every view, never a skip.
        if (env.stack == MatchState::disagree) CHECK(stack_check.status == Status::fail);
        if (env.contract == MatchState::disagree) CHECK(contract_check.status == Status::fail);
        if (stack_check.status == Status::fail || contract_check.status == Status::fail)
            CHECK(gate[0].status == Status::fail);
        // The combined state decides check --require-consistent: agree passes, disagree
        // fails, incomplete skips and says so (never "not consistent").
        const Status expected = env.state == ConsistencyState::agree      ? Status::pass
                                : env.state == ConsistencyState::disagree ? Status::fail
                                                                          : Status::skip;
        CHECK(gate[0].status == expected);
        CHECK(env.consistent == (env.state == ConsistencyState::agree));
        if (env.state == ConsistencyState::incomplete)
            CHECK(gate[0].message.starts_with("incomplete: "));
        // Whatever is not consistent says what to do.
        if (!env.consistent) CHECK_FALSE(gate[0].remediation.empty());
        consistent_seen += env.consistent ? 1 : 0;
    }
    // The generator reaches both answers, so the property is not vacuous.
    CHECK(consistent_seen > 100);
}

}  // namespace rdmi
