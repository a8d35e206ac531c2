// Tests for the full JSON report's assembly (report/json_report): its members come from the
// probes' rows, in registry order, between the run's members and the trailing ones.
#include "report/json_report.hpp"

#include <doctest/doctest.h>

#include <string>

#include "model/registry.hpp"

namespace rdmi {
namespace {

std::string member_names(const json::Json& object) {
    std::string out;
    for (const auto& [name, value] : object.items()) out += name + " ";
    return out;
}

}  // namespace

TEST_CASE(
    "report: the sections of the rows, in registry order; null for a probe that did not "
    "run, left out where its row leaves it out") {
    Facts facts;  // nothing collected
    const json::Json report = json::report(facts);
    CHECK(member_names(report) ==
          "schema schema_version tool run result summary checks install devices symbols "
          "version_matrix probe_errors recommended_device fix_plan ");
    CHECK(report.at("install").is_null());
    CHECK(report.at("devices").is_null());
    CHECK(report.at("symbols").is_null());
    CHECK(report.at("version_matrix").is_null());
}

TEST_CASE("report: a section appears under its row's field, where its row puts it") {
    Facts facts;
    facts.environment = EnvironmentFacts{};
    facts.symbols = Result<SymbolsFacts>(Gap{GapReason::not_found, "no doca-rdmi module"});
    const json::Json report = json::report(facts);
    CHECK(member_names(report) ==
          "schema schema_version tool run result summary checks install devices symbols "
          "version_matrix environment probe_errors recommended_device fix_plan ");
    CHECK(report.at("symbols").at("gap").at("message") == "no doca-rdmi module");
    CHECK(report.at("environment") == environment_json(*facts.environment));
}

TEST_CASE("report: every row's section is written, and nothing else is, besides the run's") {
    // Each row with a section, asked for directly, must be what the report holds under its field.
    Facts facts;
    facts.environment = EnvironmentFacts{};
    const json::Json report = json::report(facts);
    for (const auto& row : probe_registry()) {
        if (row.json == nullptr) {
            CHECK_FALSE(report.contains(std::string(probe_field(row.id))));
            continue;
        }
        const auto section = row.json(facts);
        CHECK(report.contains(std::string(probe_field(row.id))) == section.has_value());
        if (section) CHECK(report.at(std::string(probe_field(row.id))) == *section);
    }
}

}  // namespace rdmi
