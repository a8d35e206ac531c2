// The finding catalog (src/core/finding_catalog, gathered by src/check/check_catalog): complete,
// unambiguous, and the only way to an id.
#include "core/finding_catalog.hpp"
#include "check/check_catalog.hpp"
#include "check/gate_findings.hpp"
#include "model/registry.hpp"
#include "probes/devices/devices_findings.hpp"
#include "probes/install/install_findings.hpp"

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
    for (const FindingInfo* entry : check_catalog()) {
        const FindingInfo& info = *entry;
        CAPTURE(info.id);
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
    REQUIRE(find_finding(check_catalog(), "doca-prefix") != nullptr);
    CHECK(find_finding(check_catalog(), "doca-prefix") == &finding::doca_prefix);
    CHECK(find_finding(check_catalog(), "module-doca-rdmi") == &finding::module);
    CHECK(find_finding(check_catalog(), "module-doca-dpa-requires") == &finding::module_requires);
    CHECK(find_finding(check_catalog(), "library-doca-common") == &finding::library);
    CHECK(find_finding(check_catalog(), "stable-doca_rdmi_connection_destroy") == &finding::stable);
    CHECK(find_finding(check_catalog(), "devices-probe") == &finding::probe_error);
    CHECK(find_finding(check_catalog(), "module-<name>") == &finding::module);
    CHECK(find_finding(check_catalog(), "module-") == nullptr);  // an empty placeholder is no id
    CHECK(find_finding(check_catalog(), "no-such-check") == nullptr);
    CHECK(find_finding(check_catalog(), "") == nullptr);
    CHECK(find_finding(check_catalog(), "doca-prefix-x") == nullptr);
}

TEST_CASE("FindingId: fixed ids and filled patterns; misuse is a logic error") {
    CHECK(FindingId(finding::rdmi_dpa_device).str() == "rdmi-dpa-device");
    CHECK(FindingId(finding::module, "doca-verbs").str() == "module-doca-verbs");
    CHECK(FindingId(finding::module_requires, "doca-dpa").str() == "module-doca-dpa-requires");
    CHECK(FindingId(finding::probe_error, "install").str() == "install-probe");
    const FindingId id(finding::symbol, "doca_rdmi_x");
    CHECK(id.is(finding::symbol));
    CHECK(&id.info() == &finding::symbol);
    CHECK_FALSE(id.is(finding::stable));
    CHECK(id == "symbol-doca_rdmi_x");
    CHECK_FALSE(id == "symbol-doca_rdmi_y");
    CHECK_THROWS_AS(FindingId{finding::module}, std::logic_error);
    CHECK_THROWS_AS(FindingId(finding::dpa, "x"), std::logic_error);
    CHECK_THROWS_AS(FindingId(finding::module, ""), std::logic_error);
}

TEST_CASE("FindingId from an entry declared anywhere") {
    static constexpr FindingInfo kFixed{"made-up", "test", "A made-up check.", "", Purposes::run};
    static constexpr FindingInfo kPattern{"made-up-<x>", "test", "A made-up pattern.", "",
                                          Purposes::run};
    const FindingId fixed(kFixed);
    CHECK(fixed == "made-up");
    CHECK(&fixed.info() == &kFixed);
    CHECK_FALSE(fixed.is(finding::dpa));
    CHECK(FindingId(kPattern, "y").str() == "made-up-y");
    CHECK_THROWS_AS(FindingId{kPattern}, std::logic_error);
    CHECK_THROWS_AS(FindingId(kFixed, "y"), std::logic_error);
}

}  // namespace
}  // namespace rdmi
