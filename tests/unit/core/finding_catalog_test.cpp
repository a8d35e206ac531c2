// The finding catalog (src/core/finding_catalog): complete, unambiguous, and the only way to an id.
#include "core/finding_catalog.hpp"

#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <stdexcept>
#include <string>

namespace rdmi {
namespace {

TEST_CASE("every entry: a unique kebab-case id, who emits it, a sentence of meaning and fix") {
    const std::regex kebab("^(<[a-z]+>|[a-z0-9]+)(-(<[a-z]+>|[a-z0-9]+))*$");
    std::set<std::string_view> ids;
    std::size_t index = 0;
    for (const FindingInfo* entry : finding_catalog()) {
        const FindingInfo& info = *entry;
        CAPTURE(info.id);
        CHECK(&finding_info(static_cast<Finding>(index++)) == &info);
        CHECK(std::regex_match(std::string(info.id), kebab));
        CHECK(ids.insert(info.id).second);
        CHECK(!info.emitted_by.empty());
        CHECK(info.meaning.ends_with('.'));
        CHECK((info.fix.empty() || info.fix.ends_with('.')));
        // A pattern holds exactly one placeholder.
        if (is_pattern(info)) CHECK(info.id.find('<') == info.id.rfind('<'));
    }
    CHECK(ids.size() > 40);
}

TEST_CASE("find_finding: exact ids, filled patterns, the most specific pattern, and unknowns") {
    REQUIRE(find_finding(finding_catalog(), "doca-prefix") != nullptr);
    CHECK(find_finding(finding_catalog(), "doca-prefix") == &finding_info(Finding::doca_prefix));
    CHECK(find_finding(finding_catalog(), "module-doca-rdmi") == &finding_info(Finding::module));
    CHECK(find_finding(finding_catalog(), "module-doca-dpa-requires") ==
          &finding_info(Finding::module_requires));
    CHECK(find_finding(finding_catalog(), "library-doca-common") ==
          &finding_info(Finding::library));
    CHECK(find_finding(finding_catalog(), "stable-doca_rdmi_connection_destroy") ==
          &finding_info(Finding::stable));
    CHECK(find_finding(finding_catalog(), "devices-probe") == &finding_info(Finding::probe_error));
    CHECK(find_finding(finding_catalog(), "module-<name>") == &finding_info(Finding::module));
    CHECK(find_finding(finding_catalog(), "module-") == nullptr);  // an empty placeholder is no id
    CHECK(find_finding(finding_catalog(), "no-such-check") == nullptr);
    CHECK(find_finding(finding_catalog(), "") == nullptr);
    CHECK(find_finding(finding_catalog(), "doca-prefix-x") == nullptr);
}

TEST_CASE("FindingId: fixed ids and filled patterns; misuse is a logic error") {
    CHECK(FindingId(Finding::rdmi_dpa_device).str() == "rdmi-dpa-device");
    CHECK(FindingId(Finding::module, "doca-verbs").str() == "module-doca-verbs");
    CHECK(FindingId(Finding::module_requires, "doca-dpa").str() == "module-doca-dpa-requires");
    CHECK(FindingId(Finding::probe_error, "install").str() == "install-probe");
    const FindingId id(Finding::symbol, "doca_rdmi_x");
    CHECK(id.is(Finding::symbol));
    CHECK(&id.info() == &finding_info(Finding::symbol));
    CHECK_FALSE(id.is(Finding::stable));
    CHECK(id == "symbol-doca_rdmi_x");
    CHECK_FALSE(id == "symbol-doca_rdmi_y");
    CHECK_THROWS_AS(FindingId{Finding::module}, std::logic_error);
    CHECK_THROWS_AS(FindingId(Finding::dpa, "x"), std::logic_error);
    CHECK_THROWS_AS(FindingId(Finding::module, ""), std::logic_error);
}

TEST_CASE("FindingId from an entry declared outside enum Finding") {
    static constexpr FindingInfo kFixed{"made-up", "test", "A made-up check.", "", Purposes::run};
    static constexpr FindingInfo kPattern{"made-up-<x>", "test", "A made-up pattern.", "",
                                          Purposes::run};
    const FindingId fixed(kFixed);
    CHECK(fixed == "made-up");
    CHECK(&fixed.info() == &kFixed);
    CHECK_FALSE(fixed.is(Finding::dpa));
    CHECK(FindingId(kPattern, "y").str() == "made-up-y");
    CHECK_THROWS_AS(FindingId{kPattern}, std::logic_error);
    CHECK_THROWS_AS(FindingId(kFixed, "y"), std::logic_error);
}

}  // namespace
}  // namespace rdmi
