// Full report emitter: a pure function of the collected data.
#include "report/json_report.hpp"

#include "build_info.hpp"
#include "core/fix_plan.hpp"
#include "model/registry.hpp"
#include "probes/devices/device_choice.hpp"
#include "report/device_scope_json.hpp"

namespace rdmi::json {
namespace {

Json string_or_null(const std::string& text) {
    return text.empty() ? Json(nullptr) : Json(text);
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

namespace {

// The report's members after its probes' sections: about the run as a whole, not one probe.
struct TrailingMember {
    std::string_view name;
    Json (*emit)(const Facts& report, const std::vector<Check>& checks);
};

constexpr TrailingMember kTrailingMembers[] = {
    {"probe_errors",
     [](const Facts& report, const std::vector<Check>&) {
         Json errors = Json::array();
         for (const auto& e : report.probe_errors)
             errors.push_back(object({{"probe", e.probe}, {"message", e.message}}));
         return errors;
     }},
    {"recommended_device",
     [](const Facts& report, const std::vector<Check>&) { return recommended_device(report); }},
    {"fix_plan", [](const Facts&, const std::vector<Check>& checks) { return fix_plan(checks); }},
};

// Room for every member after "checks" is made up front: one member past it regrows the
// object, and the members of an ordered_json cannot be moved, so a regrowth deep-copies the
// whole document.
constexpr std::size_t kMembersAfterChecks = [] {
    std::size_t sections = 0;
    for (const auto& row : kProbeRows) sections += row.json != nullptr ? 1 : 0;
    return sections + std::size(kTrailingMembers) + 1;  // + device_scope
}();

}  // namespace

Json report(const Facts& report) {
    const std::vector<Check> all_checks = report_checks(report);
    Json out = object({{"schema", kReportSchemaId},
                       {"schema_version", kReportSchemaVersion},
                       {"tool", tool()},
                       {"run", report_run(report.run)},
                       {"result", to_string(overall_status(all_checks))},
                       {"summary", status_counts(count_statuses(all_checks))},
                       {"checks", report_check_list(all_checks)}},
                      kMembersAfterChecks);
    auto& members = out.get_ref<Json::object_t&>();
    // Each probe's section, from its row, in registry order.
    for (const auto& row : probe_registry()) {
        if (row.json == nullptr) continue;
        if (auto section = row.json(report))
            members.emplace(std::string(probe_field(row.id)), std::move(*section));
    }
    for (const auto& member : kTrailingMembers)
        members.emplace(std::string(member.name), member.emit(report, all_checks));
    // Only a run scoped with -d/--device has one: an unscoped report is unchanged.
    if (report.device_scope)
        members.emplace("device_scope", device_scope_json(*report.device_scope));
    return out;
}

}  // namespace rdmi::json
