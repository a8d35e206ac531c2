// The `error` command's JSON and text.
#include "report/doca_error_output.hpp"

#include <algorithm>
#include <map>

#include "build_info.hpp"
#include "json/json_common.hpp"

namespace rdmi::report {
namespace {

json::Json call_json(const DocaErrorQuery& q) {
    if (!q.call) return nullptr;
    if (!q.cause) {
        return json::object({{"name", *q.call},
                             {"known", doca::known_call(*q.call)},
                             {"cause", nullptr},
                             {"fix", nullptr},
                             {"basis", nullptr},
                             {"documented_in", nullptr}});
    }
    const bool documented = q.cause->basis == doca::CauseBasis::documented;
    return json::object(
        {{"name", *q.call},
         {"known", true},
         {"cause", std::string(q.cause->cause)},
         {"fix", std::string(q.cause->fix)},
         {"basis", std::string(doca::to_string(q.cause->basis))},
         {"documented_in",
          documented ? json::Json(std::string(q.cause->documented_in)) : json::Json(nullptr)}});
}

// Calls in name order, each with its causes in error-number order.
std::map<std::string_view, std::vector<doca::CallCause>> causes_by_call() {
    std::map<std::string_view, std::vector<doca::CallCause>> out;
    for (const auto& cause : doca::call_causes()) out[cause.call].push_back(cause);
    for (auto& [call, causes] : out) {
        std::stable_sort(causes.begin(), causes.end(),
                         [](const auto& a, const auto& b) { return a.number < b.number; });
    }
    return out;
}

std::string_view error_name(int number) {
    return doca::error_entries().at(static_cast<std::size_t>(number)).name;
}

}  // namespace

std::string doca_error_calls_json() {
    json::Json calls = json::Json::array();
    for (const auto& [call, causes] : causes_by_call()) {
        json::Json listed = json::Json::array();
        for (const auto& cause : causes) {
            const bool documented = cause.basis == doca::CauseBasis::documented;
            listed.push_back(json::object(
                {{"error", std::string(error_name(cause.number))},
                 {"number", cause.number},
                 {"cause", std::string(cause.cause)},
                 {"fix", std::string(cause.fix)},
                 {"basis", std::string(doca::to_string(cause.basis))},
                 {"documented_in", documented ? json::Json(std::string(cause.documented_in))
                                              : json::Json(nullptr)}}));
        }
        calls.push_back(json::object({{"name", std::string(call)}, {"causes", std::move(listed)}}));
    }
    return json::dump(json::object({
        {"schema", kDocaErrorCallsSchemaId},
        {"schema_version", kDocaErrorCallsSchemaVersion},
        {"tool",
         json::object({{"name", build_info::kToolName}, {"version", build_info::kVersion}})},
        {"calls", std::move(calls)},
    }));
}

std::string doca_error_calls_text() {
    std::string out =
        "Calls with known causes (rdmi-probe error ERROR --call CALL explains one):\n";
    for (const auto& [call, causes] : causes_by_call()) {
        out += "\n" + std::string(call) + "\n";
        for (const auto& cause : causes) {
            out += "  " + std::string(error_name(cause.number)) + " (" +
                   std::to_string(cause.number) + "): " + std::string(cause.cause) + "\n";
            out += "      " + doca::basis_text(cause) + "\n";
        }
    }
    return out;
}

std::string doca_error_json(const DocaErrorQuery& q) {
    json::Json checks = json::Json::array();
    for (const auto& check : q.entry.checks) {
        if (check.command.empty()) continue;
        checks.push_back(json::object(
            {{"what", std::string(check.what)}, {"command", std::string(check.command)}}));
    }
    const json::Json doc = json::object({
        {"schema", kDocaErrorSchemaId},
        {"schema_version", kDocaErrorSchemaVersion},
        {"tool",
         json::object({{"name", build_info::kToolName}, {"version", build_info::kVersion}})},
        {"query", q.query},
        {"error", json::object({{"name", std::string(q.entry.name)},
                                {"number", q.entry.number},
                                {"description", std::string(q.entry.description)},
                                {"description_source", "doca_error.h"}})},
        {"layer", std::string(doca::to_string(q.entry.layer))},
        {"layer_description", std::string(doca::describe(q.entry.layer))},
        {"meaning", std::string(q.entry.meaning)},
        {"checks", std::move(checks)},
        {"call", call_json(q)},
    });
    return json::dump(doc);
}

std::string doca_error_text(const DocaErrorQuery& q) {
    std::string out = std::string(q.entry.name) + " (" + std::to_string(q.entry.number) +
                      "): " + std::string(q.entry.description) + "\n";
    out += "  layer:   " + std::string(doca::describe(q.entry.layer)) + "\n";
    out += "  meaning: " + std::string(q.entry.meaning) + "\n";
    if (q.call) {
        if (q.cause) {
            out += "  " + *q.call + " returning " + std::string(q.entry.name) + ": " +
                   std::string(q.cause->cause) + "\n";
            out += "  basis:   " + doca::basis_text(*q.cause) + "\n";
            out += "  fix:     " + std::string(q.cause->fix) + "\n";
        } else {
            out += "  " + *q.call + ": no specific cause recorded for this error\n";
        }
    }
    bool first = true;
    for (const auto& check : q.entry.checks) {
        if (check.command.empty()) continue;
        if (first) out += "check, in order:\n";
        first = false;
        out += "  " + std::string(check.command) + "\n      " + std::string(check.what) + "\n";
    }
    return out;
}

}  // namespace rdmi::report
