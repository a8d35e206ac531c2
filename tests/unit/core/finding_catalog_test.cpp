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
    for (const auto& info : finding_catalog()) {
        CAPTURE(info.id);
        CHECK(static_cast<std::size_t>(info.finding) == index++);
        CHECK(std::regex_match(std::string(info.id), kebab));
        CHECK(ids.insert(info.id).second);
        CHECK(!info.emitted_by.empty());
        CHECK(info.meaning.ends_with('.'));
        CHECK((info.fix.empty() || info.fix.ends_with('.')));
        CHECK(&finding_info(info.finding) == &info);
        // A pattern holds exactly one placeholder.
        if (is_pattern(info)) CHECK(info.id.find('<') == info.id.rfind('<'));
    }
    CHECK(ids.size() > 40);
}

TEST_CASE("find_finding: exact ids, filled patterns, the most specific pattern, and unknowns") {
    REQUIRE(find_finding("doca-prefix") != nullptr);
    CHECK(find_finding("doca-prefix")->finding == Finding::doca_prefix);
    CHECK(find_finding("module-doca-rdmi")->finding == Finding::module);
    CHECK(find_finding("module-doca-dpa-requires")->finding == Finding::module_requires);
    CHECK(find_finding("library-doca-common")->finding == Finding::library);
    CHECK(find_finding("stable-doca_rdmi_connection_destroy")->finding == Finding::stable);
    CHECK(find_finding("devices-probe")->finding == Finding::probe_error);
    CHECK(find_finding("module-<name>")->finding == Finding::module);
    CHECK(find_finding("module-") == nullptr);  // an empty placeholder is no id
    CHECK(find_finding("no-such-check") == nullptr);
    CHECK(find_finding("") == nullptr);
    CHECK(find_finding("doca-prefix-x") == nullptr);
}

TEST_CASE("FindingId: fixed ids and filled patterns; misuse is a logic error") {
    CHECK(FindingId(Finding::rdmi_dpa_device).str() == "rdmi-dpa-device");
    CHECK(FindingId(Finding::module, "doca-verbs").str() == "module-doca-verbs");
    CHECK(FindingId(Finding::module_requires, "doca-dpa").str() == "module-doca-dpa-requires");
    CHECK(FindingId(Finding::probe_error, "install").str() == "install-probe");
    const FindingId id(Finding::symbol, "doca_rdmi_x");
    CHECK(id.finding() == Finding::symbol);
    CHECK(id == "symbol-doca_rdmi_x");
    CHECK_FALSE(id == "symbol-doca_rdmi_y");
    CHECK_THROWS_AS(FindingId{Finding::module}, std::logic_error);
    CHECK_THROWS_AS(FindingId(Finding::dpa, "x"), std::logic_error);
    CHECK_THROWS_AS(FindingId(Finding::module, ""), std::logic_error);
}

}  // namespace
}  // namespace rdmi
