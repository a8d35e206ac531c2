// Tests for the four-way version matches: absent kept apart from disagreeing, odd one out named.
#include <doctest/doctest.h>

#include "probes/install/install_parts.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi {
namespace {

VersionSource present(const std::string& name, const std::string& raw) {
    return VersionSource{name, Sourced<std::string>::of(raw, {"pkg-config", name}),
                         parse_doca_version(raw)};
}

VersionSource absent(const std::string& name) {
    return VersionSource{name,
                         Sourced<std::string>::missing({GapReason::not_found, name + ": not found"},
                                                       {"pkg-config", name}),
                         std::nullopt};
}

}  // namespace

TEST_CASE("four agreeing sources are consistent") {
    auto match = install::match_versions({present("a", "3.3.0105"), present("b", "3.3.0105"),
                                          present("c", "3.3.0"), present("d", "3.3.0105")});
    CHECK(match.consistent);
    CHECK(match.agreed->to_string() == "3.3.0105");
    CHECK(match.absent.empty());
    CHECK(match.disagreeing.empty());
}

TEST_CASE("the odd one out is named, the majority wins") {
    auto match = install::match_versions(
        {present("doca-common.pc", "3.3.0105"), present("doca-verbs.pc", "3.3.0105"),
         present("doca-dpa.pc", "3.2.1025"), present("doca-rdmi.pc", "3.3.0105")});
    CHECK_FALSE(match.consistent);
    CHECK(match.agreed->to_string() == "3.3.0105");
    CHECK(match.disagreeing == std::vector<std::string>{"doca-dpa.pc"});
}

TEST_CASE("the majority wins wherever the odd one is listed; a tie goes to the first") {
    auto match = install::match_versions(
        {present("doca-dpa.pc", "3.2.1025"), present("doca-common.pc", "3.3.0105"),
         present("doca-verbs.pc", "3.3.0105"), present("doca-rdmi.pc", "3.3.0105")});
    CHECK_FALSE(match.consistent);
    CHECK(match.agreed->to_string() == "3.3.0105");
    CHECK(match.disagreeing == std::vector<std::string>{"doca-dpa.pc"});
    auto tie = install::match_versions({present("a", "3.2.1025"), present("b", "3.3.0105")});
    CHECK(tie.agreed->to_string() == "3.2.1025");
    CHECK(tie.disagreeing == std::vector<std::string>{"b"});
}

TEST_CASE("absent sources are kept apart from disagreeing ones, and the match is incomplete") {
    auto match =
        install::match_versions({present("a", "3.3.0105"), absent("b"), present("c", "3.3.0105")});
    CHECK_FALSE(match.consistent);
    CHECK(match_state(match) == MatchState::incomplete);
    CHECK(match.absent == std::vector<std::string>{"b"});
    CHECK(match.disagreeing.empty());
}

TEST_CASE("one or no present source is not a match") {
    CHECK_FALSE(install::match_versions({present("a", "3.3.0105"), absent("b")}).consistent);
    auto none = install::match_versions({absent("a"), absent("b")});
    CHECK_FALSE(none.consistent);
    CHECK_FALSE(none.agreed.has_value());
}

TEST_CASE("a known build fills in a release-only majority") {
    auto match = install::match_versions({present("a", "3.3.0"), present("b", "3.3.0105")});
    CHECK(match.agreed->to_string() == "3.3.0105");
}

}  // namespace rdmi
