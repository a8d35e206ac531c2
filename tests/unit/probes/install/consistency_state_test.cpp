// The combined consistency state, the waiver that leaves a source out, the fix for an absent
// source, and doca-version-files (<prefix>/VERSION against applications/VERSION).
#include <doctest/doctest.h>

#include "check/evaluate.hpp"
#include "check/policy.hpp"
#include "probes/install/install_parts.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi {
namespace {

VersionSource present_source(const std::string& name, const std::string& text) {
    return {name, Sourced<std::string>::of(text, {"file", "/opt/mellanox/doca/" + name}),
            parse_doca_version(text)};
}

VersionSource absent_source(const std::string& name, const std::string& ref) {
    return {name,
            Sourced<std::string>::missing({GapReason::not_found, ref + ": no such file"},
                                          {"command", ref}),
            std::nullopt};
}

// A complete 3.3.0047 install under --root: every module and applications/VERSION agree, the
// runtime is not loaded there, there is no BFB, and doca_caps is the one source missing.
InstallFacts caps_missing() {
    InstallFacts facts;
    facts.prefix = Sourced<std::string>::of("/opt/mellanox/doca", {"derived", "default"});
    facts.prefix_exists = true;
    facts.layout = DocaLayout::multiarch;
    std::vector<VersionSource> stack;
    for (const char* name : {"doca-common.pc", "doca-verbs.pc", "doca-dpa.pc", "doca-rdmi.pc"})
        stack.push_back(present_source(name, "3.3.0047"));
    stack.push_back({"runtime",
                     Sourced<std::string>::missing({GapReason::not_applicable, "under --root"},
                                                   {"api", "doca_version_runtime()"}),
                     std::nullopt});
    std::vector<VersionSource> contract = {
        stack[0],
        present_source("applications/VERSION", "3.3.0047"),
        absent_source("doca_caps --version", "/opt/mellanox/doca/tools/doca_caps --version"),
        {"bfb",
         Sourced<std::string>::missing({GapReason::not_applicable, "not a BlueField"},
                                       {"file", "/etc/mlnx-release"}),
         std::nullopt}};
    facts.stack_versions = install::match_versions(stack);
    facts.contract_versions = install::match_versions(contract);
    facts.version_file = present_source("VERSION", "3.3.0");
    return facts;
}

Check require_consistent(const InstallFacts& facts, std::vector<std::string> waived = {}) {
    gate::Policy policy;
    policy.require_consistent = true;
    policy.waive_sources = std::move(waived);
    const auto checks = gate::install_gate(policy, facts);
    REQUIRE(checks.size() == 1);
    return checks.front();
}

}  // namespace

TEST_CASE("the combined state: disagree first, then incomplete, else agree") {
    using M = MatchState;
    using C = ConsistencyState;
    for (auto [stack, contract, want] :
         {std::tuple{M::agree, M::agree, C::agree}, std::tuple{M::agree, M::disagree, C::disagree},
          std::tuple{M::incomplete, M::disagree, C::disagree},
          std::tuple{M::disagree, M::too_few, C::disagree},
          std::tuple{M::agree, M::incomplete, C::incomplete},
          std::tuple{M::too_few, M::agree, C::incomplete},
          std::tuple{M::too_few, M::incomplete, C::incomplete}}) {
        CHECK(combined_state(stack, contract) == want);
    }
}

TEST_CASE("only doca_caps absent: incomplete, a skip naming it, a fix that restores or waives") {
    const InstallFacts facts = caps_missing();
    const Consistency verdict = judge_consistency(facts);
    CHECK(verdict.state == ConsistencyState::incomplete);
    CHECK_FALSE(verdict.consistent);
    CHECK(verdict.stack == MatchState::agree);

    const Check check = require_consistent(facts);
    CHECK(check.status == Status::skip);
    CHECK(check.message ==
          "incomplete: DOCA version sources incomplete: doca_caps --version is absent; the rest "
          "say 3.3.0047 (doca-common.pc, applications/VERSION)");
    // An absent tool is never told to "agree".
    CHECK(check.remediation.find("agree") == std::string::npos);
    CHECK(check.remediation ==
          "restore /opt/mellanox/doca/tools/doca_caps from DOCA 3.3.0047, or leave it out of the "
          "match: rdmi-probe check --require-consistent --waive-source doca_caps");
}

TEST_CASE("--waive-source doca_caps: the source leaves the match, the rest agree, pass") {
    const Check check = require_consistent(caps_missing(), {"doca_caps"});
    CHECK(check.status == Status::pass);
    CHECK(check.message.ends_with("; waived: doca_caps (doca_caps --version)"));
    const InstallFacts waived = waive_sources(caps_missing(), {"doca_caps"});
    CHECK(judge_consistency(waived).state == ConsistencyState::agree);
    CHECK(source_state(waived.contract_versions.sources[2]) == SourceState::not_applicable);
}

TEST_CASE("a waiver does not hide another source's disagreement, nor makes one source enough") {
    InstallFacts facts = caps_missing();
    auto contract = facts.contract_versions.sources;
    contract[1] = present_source("applications/VERSION", "3.2.1025");
    facts.contract_versions = install::match_versions(contract);
    CHECK(require_consistent(facts, {"doca_caps"}).status == Status::fail);
    // Waiving the odd one too leaves doca-common.pc alone: nothing to compare, incomplete.
    const Check lone = require_consistent(facts, {"doca_caps", "applications_version"});
    CHECK(lone.status == Status::skip);
    CHECK(
        lone.message.starts_with("incomplete: DOCA version sources too_few: only "
                                 "doca-common.pc (3.3.0047) applies here"));
}

TEST_CASE("waiver names: the table's, and an unknown one lists them") {
    CHECK(find_waivable("doca_caps") != nullptr);
    CHECK(find_waivable("doca-caps") == nullptr);
    CHECK(gate::check_waived_source("bfb").ok());
    const auto bad = gate::check_waived_source("doca-caps");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.gap().message ==
          "\"doca-caps\" is not a version source a waiver can name (doca-common, doca-verbs, "
          "doca-dpa, doca-rdmi, runtime, applications_version, doca_caps, bfb)");
    auto policy = gate::parse_policy(
        R"({"schema_version": 1, "require_consistent": true, "waive_sources": ["doca_caps"]})",
        "p.json");
    REQUIRE(policy.ok());
    CHECK(policy->waive_sources == std::vector<std::string>{"doca_caps"});
    auto wrong = gate::parse_policy(
        R"({"schema_version": 1, "require_consistent": true, "waive_sources": ["caps"]})",
        "p.json");
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.gap().message.starts_with("p.json: at /waive_sources/0: \"caps\" is not"));
}

TEST_CASE("doca-version-files: one release passes, two warn naming the stale file") {
    InstallFacts facts = caps_missing();
    Check check = install::version_files_check(facts);
    CHECK(check.id == "doca-version-files");
    CHECK(check.status == Status::pass);
    CHECK(check.message ==
          "/opt/mellanox/doca/VERSION (3.3.0) and /opt/mellanox/doca/applications/VERSION "
          "(3.3.0047) name the same release");

    facts.version_file = present_source("VERSION", "3.2.1025");
    check = install::version_files_check(facts);
    CHECK(check.status == Status::warn);
    CHECK(check.remediation ==
          "reinstall DOCA 3.3.0047 so that /opt/mellanox/doca/VERSION is "
          "rewritten");

    facts.version_file = absent_source("VERSION", "/opt/mellanox/doca/VERSION");
    facts.version_file.raw.source = {"file", "/opt/mellanox/doca/VERSION"};
    check = install::version_files_check(facts);
    CHECK(check.status == Status::info);
    CHECK(check.message.starts_with("/opt/mellanox/doca/VERSION is not installed"));
}

}  // namespace rdmi
