// Tests for the one rule of "consistent": source states, match states, the install verdict.
#include <doctest/doctest.h>

#include "probes/install/install_parts.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi {
namespace {

VersionSource text(const std::string& name, const std::string& raw) {
    return VersionSource{name, Sourced<std::string>::of(raw, {"pkg-config", name}),
                         parse_doca_version(raw)};
}

VersionSource gap(const std::string& name, GapReason reason) {
    return VersionSource{name,
                         Sourced<std::string>::missing({reason, name + ": why"}, {"file", name}),
                         std::nullopt};
}

InstallFacts install_with(std::vector<VersionSource> stack, std::vector<VersionSource> contract) {
    InstallFacts facts;
    facts.stack_versions = install::match_versions(std::move(stack));
    facts.contract_versions = install::match_versions(std::move(contract));
    return facts;
}

std::vector<VersionSource> good_stack() {
    return {text("doca-common.pc", "3.3.0047"), text("doca-verbs.pc", "3.3.0047"),
            text("doca-dpa.pc", "3.3.0047"), text("doca-rdmi.pc", "3.3.0047"),
            gap("runtime", GapReason::not_applicable)};
}

std::vector<VersionSource> good_contract() {
    return {text("doca-common.pc", "3.3.0047"), text("applications/VERSION", "3.3.0047"),
            gap("doca_caps --version", GapReason::not_applicable),
            gap("bfb", GapReason::not_applicable)};
}

}  // namespace

TEST_CASE("each source is in exactly one of five states") {
    CHECK(source_state(text("a", "3.3.0047")) == SourceState::present);
    CHECK(source_state(text("a", "3.3.0105-rc1~beta")) == SourceState::unparseable);
    CHECK(source_state(text("a", std::string(60000, '9'))) == SourceState::unparseable);
    CHECK(source_state(text("a", "-3.3.0")) == SourceState::unparseable);
    CHECK(source_state(text("a", "18446744073709551617.0.0")) == SourceState::unparseable);
    CHECK(source_state(gap("a", GapReason::not_found)) == SourceState::absent);
    CHECK(source_state(gap("a", GapReason::not_installed)) == SourceState::absent);
    CHECK(source_state(gap("a", GapReason::permission_denied)) == SourceState::unreadable);
    CHECK(source_state(gap("a", GapReason::malformed)) == SourceState::unreadable);
    CHECK(source_state(gap("a", GapReason::not_applicable)) == SourceState::not_applicable);
}

TEST_CASE("an unparseable text is shown, bounded, and never called absent") {
    const std::string line = describe_source(text("doca-rdmi.pc", "3.3.0105-rc1~beta"));
    CHECK(line == "unparseable ('3.3.0105-rc1~beta' is not a DOCA version)");
    const std::string huge = describe_source(text("doca-rdmi.pc", std::string(60000, '9')));
    CHECK(huge.size() < 120);
    CHECK(huge.find("60000 bytes") != std::string::npos);
    auto match = install::match_versions({text("a", "3.3.0"), text("b", "3.3.0105-rc1~beta")});
    CHECK(match.unparseable == std::vector<std::string>{"b"});
    CHECK(match.absent.empty());
    CHECK(match_state(match) == MatchState::incomplete);
}

TEST_CASE("a healthy install is consistent") {
    const auto verdict = judge_consistency(install_with(good_stack(), good_contract()));
    CHECK(verdict.consistent);
    CHECK(verdict.stack == MatchState::agree);
    CHECK(verdict.contract == MatchState::agree);
}

TEST_CASE("a doca-dpa from another release makes the install inconsistent") {
    auto stack = good_stack();
    stack[2] = text("doca-dpa.pc", "3.2.1025");
    // The contract's own sources all agree: consistency must still be false.
    const auto verdict = judge_consistency(install_with(stack, good_contract()));
    CHECK_FALSE(verdict.consistent);
    CHECK(verdict.stack == MatchState::disagree);
    CHECK(verdict.contract == MatchState::agree);
    CHECK(verdict.reason.find("doca-dpa.pc is 3.2.1025") != std::string::npos);
    auto facts = install_with(stack, good_contract());
    CHECK(match_fix(facts.stack_versions, true).starts_with("install doca-dpa from DOCA 3.3.0047"));
}

TEST_CASE("absent, unreadable and unparseable each make a match incomplete, never consistent") {
    for (auto odd : {gap("applications/VERSION", GapReason::not_found),
                     gap("applications/VERSION", GapReason::permission_denied),
                     text("applications/VERSION", "3.3.0047-rc1")}) {
        auto contract = good_contract();
        contract[1] = odd;
        const auto verdict = judge_consistency(install_with(good_stack(), contract));
        CHECK_FALSE(verdict.consistent);
        CHECK(verdict.contract == MatchState::incomplete);
        CHECK(match_status(verdict.contract) == Status::skip);
    }
}

TEST_CASE("one applicable source is too few to compare") {
    auto contract = good_contract();
    contract[1] = gap("applications/VERSION", GapReason::not_applicable);
    const auto verdict = judge_consistency(install_with(good_stack(), contract));
    CHECK_FALSE(verdict.consistent);
    CHECK(verdict.contract == MatchState::too_few);
}

TEST_CASE("a .pc that does not parse gets the module check's fix, so the plan has one step") {
    // pc-garbage: the version checks said "make doca-common.pc readable" (it is readable; it is
    // damaged) while module-doca-common said "repair or reinstall": two steps for one cause.
    auto stack = good_stack();
    stack[0] = gap("doca-common.pc", GapReason::malformed);
    const auto facts = install_with(stack, good_contract());
    CHECK(match_fix(facts.stack_versions, true) ==
          "repair or reinstall the package that ships doca-common.pc");
    CHECK(unreadable_fix("doca-common.pc", Gap{GapReason::malformed, "NUL byte"}) ==
          "repair or reinstall the package that ships doca-common.pc");
    CHECK(unreadable_fix("doca-common.pc", Gap{GapReason::permission_denied, "denied"}) ==
          "rerun as a user who can read doca-common.pc (or as root)");
    CHECK(unreadable_fix("doca_caps --version", Gap{GapReason::timeout, "slow"}) ==
          "rerun with a larger --timeout");
    CHECK(unreadable_fix("applications/VERSION", Gap{GapReason::error, "a FIFO"}) ==
          "make applications/VERSION readable (see its gap)");
}

}  // namespace rdmi
