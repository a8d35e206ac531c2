// Full report emitter: a pure function of the collected data.
#include "report/json_report.hpp"

#include "build_info.hpp"
#include "core/fix_plan.hpp"
#include "model/registry.hpp"
#include "probes/devices/device_choice.hpp"
#include "report/contract_matrix.hpp"
#include "report/devices_json.hpp"
#include "report/symbols_json.hpp"
#include "report/versions_json.hpp"

namespace rdmi::json {
namespace {

Json string_or_null(const std::string& text) {
    return text.empty() ? Json(nullptr) : Json(text);
}

Json module(const ModuleFacts& m) {
    Json unresolved = Json::array();
    for (const auto& req : m.unresolved) {
        unresolved.push_back(object({{"name", req.name},
                                     {"constraint", string_or_null(req.constraint)},
                                     {"problem", req.problem}}));
    }
    Json libs = Json::array();
    for (const auto& name : m.library_names) libs.push_back(name);
    return object({{"name", m.name},
                   {"found", m.found},
                   {"on_search_path", m.on_search_path},
                   {"pc_path", string_or_null(m.pc_path)},
                   {"version", string_or_null(m.version)},
                   {"prefix", string_or_null(m.prefix)},
                   {"libdir", string_or_null(m.libdir)},
                   {"includedir", string_or_null(m.includedir)},
                   {"libraries", std::move(libs)},
                   {"unresolved_requires", std::move(unresolved)},
                   {"gap", optional_gap(m.gap)}});
}

Json file(const InstalledFile& f) {
    return object({{"name", f.name},
                   {"path", f.path},
                   {"present", f.present},
                   {"detail", string_or_null(f.detail)},
                   {"gap", optional_gap(f.gap)}});
}

Json files(const std::vector<InstalledFile>& list) {
    Json out = Json::array();
    for (const auto& f : list) out.push_back(file(f));
    return out;
}

Json environment(const EnvironmentFacts& facts) {
    Json variables = Json::array();
    for (const auto& v : facts.variables) {
        variables.push_back(object({{"name", v.name},
                                    {"value", v.value ? Json(*v.value) : Json(nullptr)},
                                    {"source", provenance({"env", v.name})}}));
    }
    return object({{"applies", facts.applies}, {"variables", std::move(variables)}});
}

Json recommended_device(const Facts& report) {
    DeviceChoice choice;
    if (report.devices) {
        choice = recommend_device(*report.devices);
    } else {
        choice.reason = "the devices probe did not run";
    }
    return object({{"function", choice.function ? Json(*choice.function) : Json(nullptr)},
                   {"rdma_device", string_or_null(choice.rdma_device)},
                   {"reason", choice.reason},
                   {"rule", std::string(kDeviceChoiceRule)}});
}

Json fix_plan(const std::vector<Check>& checks) {
    Json steps = Json::array();
    int number = 0;
    for (const auto& step : plan_fixes(checks)) {
        steps.push_back(object({{"step", ++number},
                                {"id", step.id},
                                {"action", step.action},
                                {"resolves", step.resolves},
                                {"fixes_failure", step.fixes_failure},
                                {"purposes", purpose_names(step.purposes)}}));
    }
    return steps;
}

// The report's checks, each with the purposes it answers (the shared check shape has none: the
// other documents' checks answer the question their command asks).
Json report_check_list(const std::vector<Check>& list) {
    Json out = checks(list);
    for (std::size_t i = 0; i < list.size(); ++i)
        out[i]["purposes"] = purpose_names(list[i].id.info().purposes);
    return out;
}

// The run, with the question this report answers (`report --for`).
Json report_run(const RunInfo& run) {
    Json out = run_info(run);
    out["for"] = std::string(for_name(run.for_purposes));
    return out;
}

}  // namespace

Json tool() {
    return object({{"name", build_info::kToolName}, {"version", build_info::kVersion}});
}

namespace {

Json containment(const ContainmentStatus& status) {
    return object(
        {{"state", std::string(to_string(status.state))},
         {"reasons", status.reasons},
         {"no_new_privs", status.no_new_privs},
         {"landlock_abi", status.landlock_abi > 0 ? Json(status.landlock_abi) : Json(nullptr)},
         {"capabilities", object({{"library_calls", status.library_calls_capabilities},
                                  {"loopback", status.loopback_capabilities},
                                  {"tools", status.tool_capabilities}})}});
}

}  // namespace

Json run_info(const RunInfo& run) {
    return object({{"root", run.root},
                   {"live", run.live},
                   {"generated_at", run.generated_at},
                   {"duration_ms", run.duration_ms},
                   {"timeout_s", run.timeout_s},
                   {"containment", containment(run.containment)}});
}

Json install(const InstallFacts& facts) {
    Json stack = Json::array();
    for (const auto& m : facts.stack) stack.push_back(module(m));
    Json doca_modules = Json::array();
    for (const auto& m : facts.doca_modules) doca_modules.push_back(module(m));
    return object({{"prefix", sourced(facts.prefix)},
                   {"prefix_exists", facts.prefix_exists},
                   {"layout", to_string(facts.layout)},
                   {"pc_dir", string_or_null(facts.pc_dir)},
                   {"search_path", facts.search_path},
                   {"stack", std::move(stack)},
                   {"doca_modules", std::move(doca_modules)},
                   {"stack_versions", version_match(facts.stack_versions)},
                   {"contract_versions", version_match(facts.contract_versions)},
                   {"consistency", consistency(facts)},
                   {"version_file", version_source(facts.version_file)},
                   {"include_dir", string_or_null(facts.include_dir)},
                   {"headers", files(facts.headers)},
                   {"libraries", files(facts.libraries)},
                   {"samples", file(facts.samples)},
                   {"tools", Json::array({file(facts.doca_caps), file(facts.dpacc)})}});
}

// The members report() adds after "checks", besides a section per registry row: install,
// devices, symbols, version_matrix, environment, probe_errors, recommended_device, fix_plan.
// Room for all of them is made up front: one member past it regrows the object, and the
// members of an ordered_json cannot be moved, so a regrowth deep-copies the whole document.
constexpr std::size_t kMembersAfterChecks = 8;

Json report(const Facts& report) {
    const std::vector<Check> all_checks = report_checks(report);
    Json errors = Json::array();
    for (const auto& e : report.probe_errors)
        errors.push_back(object({{"probe", e.probe}, {"message", e.message}}));
    Json out = object({{"schema", kReportSchemaId},
                       {"schema_version", kReportSchemaVersion},
                       {"tool", tool()},
                       {"run", report_run(report.run)},
                       {"result", to_string(overall_status(all_checks))},
                       {"summary", status_counts(count_statuses(all_checks))},
                       {"checks", report_check_list(all_checks)}},
                      kMembersAfterChecks + probe_registry().size());
    out["install"] = report.install ? install(*report.install) : Json(nullptr);
    out["devices"] = report.devices ? devices(*report.devices) : Json(nullptr);
    out["symbols"] = !report.symbols   ? Json(nullptr)
                     : *report.symbols ? symbols_summary(**report.symbols)
                                       : symbols_gap(report.symbols->gap());
    out["version_matrix"] =
        report.version_matrix ? version_matrix(*report.version_matrix) : Json(nullptr);
    if (report.environment) out["environment"] = environment(*report.environment);
    // The sections the probes' rows give, in registry order.
    for (const auto& row : probe_registry()) {
        if (row.json == nullptr || !collected(report, row.id)) continue;
        if (auto section = row.json(report))
            out[std::string(probe_field(row.id))] = std::move(*section);
    }
    out["probe_errors"] = std::move(errors);
    out["recommended_device"] = recommended_device(report);
    out["fix_plan"] = fix_plan(all_checks);
    return out;
}

}  // namespace rdmi::json
