// Tests for the symbol-level view of a diff between two symbol audits.
#include <doctest/doctest.h>

#include "report/diff_document.hpp"

namespace rdmi::diff {
namespace {

Json audit(std::initializer_list<std::tuple<const char*, const char*, bool>> symbols) {
    Json list = Json::array();
    for (const auto& [name, stability, exported] : symbols) {
        list.push_back(Json{{"name", name}, {"stability", stability}, {"exported", exported}});
    }
    return Json{{"schema", "urn:rdmi-probe:schema:symbols"}, {"symbols", list}};
}

}  // namespace

TEST_CASE("an upgrade's added, removed, promoted and deprecated symbols are named") {
    const Json before = audit({{"doca_rdmi_a", "experimental", true},
                               {"doca_rdmi_b", "experimental", true},
                               {"doca_rdmi_c", "stable", true},
                               {"doca_rdmi_gone", "experimental", true},
                               {"doca_rdmi_d", "unknown", true},
                               {"doca_rdmi_declared_only", "experimental", false}});
    const Json after = audit({{"doca_rdmi_a", "stable", true},
                              {"doca_rdmi_b", "experimental", true},
                              {"doca_rdmi_c", "deprecated", true},
                              {"doca_rdmi_d", "experimental", true},
                              {"doca_rdmi_declared_only", "experimental", true},
                              {"doca_rdmi_new", "experimental", true}});
    const auto view = symbols_view(before, after);
    CHECK(view.added == std::vector<std::string>{"doca_rdmi_declared_only", "doca_rdmi_new"});
    CHECK(view.removed == std::vector<std::string>{"doca_rdmi_gone"});
    CHECK(view.promoted == std::vector<std::string>{"doca_rdmi_a"});
    CHECK(view.deprecated == std::vector<std::string>{"doca_rdmi_c"});
    CHECK(view.changed == std::vector<std::string>{"doca_rdmi_d"});
    const Json doc = to_json(view);
    CHECK(doc["promoted"] == Json::array({"doca_rdmi_a"}));
}

TEST_CASE("identical audits and malformed symbol lists give an empty view") {
    const Json same = audit({{"doca_rdmi_a", "experimental", true}});
    const auto view = symbols_view(same, same);
    CHECK(view.added.empty());
    CHECK(view.removed.empty());
    CHECK(view.changed.empty());
    const auto odd = symbols_view(Json{{"symbols", "not a list"}},
                                  Json{{"symbols", Json::array({1, "x", nullptr})}});
    CHECK(odd.added.empty());
    CHECK(odd.removed.empty());
}

}  // namespace rdmi::diff
