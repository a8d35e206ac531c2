// The loopback document: field names follow schemas/rdmi-probe-loopback.schema.json.
#include "report/loopback_json.hpp"

#include "build_info.hpp"
#include "report/json_report.hpp"

namespace rdmi::json {
namespace {

Json nullable(const std::string& text) {
    return text.empty() ? Json(nullptr) : Json(text);
}

Json doca_error(const std::optional<DocaFailure>& error) {
    if (!error) return nullptr;
    return object({{"call", error->call},
                   {"code", error->code},
                   {"name", error->name},
                   {"description", error->description}});
}

Json steps(const std::vector<LoopbackStep>& list) {
    Json out = Json::array();
    for (const auto& step : list) {
        out.push_back(object({{"id", step.id},
                              {"level", step.level},
                              {"outcome", to_string(step.outcome)},
                              {"duration_ms", step.duration_ms},
                              {"message", step.message},
                              {"error", doca_error(step.error)}}));
    }
    return out;
}

}  // namespace

Json dpa_loopback(const LoopbackVerdict& verdict) {
    Json out = object({{"result", to_string(verdict.result)},
                       {"level_requested", verdict.level_requested},
                       {"level_reached", verdict.level_reached},
                       {"reason", verdict.reason},
                       {"device", nullptr},
                       {"steps", steps(verdict.steps)},
                       {"failure", nullptr},
                       {"measurements", nullptr},
                       {"mismatch_offset", nullptr},
                       {"lifecycle_selftest", nullptr},
                       {"teardown",
                        {{"released", verdict.teardown.released},
                         {"complete", verdict.teardown.complete},
                         {"errors", verdict.teardown.errors}}},
                       {"plugin", nullable(verdict.plugin_path)},
                       {"libraries", verdict.libraries},
                       {"notes", verdict.notes}});
    if (verdict.device) {
        out["device"] =
            object({{"pci_addr", verdict.device->pci_addr}, {"ibdev", verdict.device->ibdev}});
    }
    if (verdict.result == Status::fail) {
        out["failure"] =
            object({{"step", verdict.failed_step.value_or("")},
                    {"layer", verdict.layer ? Json(to_string(*verdict.layer)) : Json()},
                    {"error", doca_error(verdict.error)},
                    {"first_action", verdict.first_action}});
    }
    if (const auto& m = verdict.measurements) {
        out["measurements"] = object({{"bytes", m->bytes},
                                      {"iterations", m->iterations},
                                      {"latency_us",
                                       {{"min", m->latency_min_us},
                                        {"median", m->latency_median_us},
                                        {"max", m->latency_max_us}}},
                                      {"bandwidth_mb_s", nullptr}});
        if (m->bandwidth_mb_s) out["measurements"]["bandwidth_mb_s"] = *m->bandwidth_mb_s;
    }
    if (verdict.mismatch_offset) out["mismatch_offset"] = *verdict.mismatch_offset;
    if (const auto& s = verdict.selftest) {
        out["lifecycle_selftest"] = object({{"result", to_string(s->result)},
                                            {"objects", nullable(s->objects)},
                                            {"expected", nullable(s->expected)},
                                            {"returned", nullable(s->returned)},
                                            {"message", s->message}});
    }
    return out;
}

Json loopback_document(const RunInfo& run, const LoopbackVerdict& verdict) {
    return object({{"schema", kLoopbackSchemaId},
                   {"schema_version", kLoopbackSchemaVersion},
                   {"tool", tool()},
                   {"run", run_info(run)},
                   {"result", to_string(verdict.result)},
                   {"checks", checks({loopback_check(verdict)})},
                   {"dpa_loopback", dpa_loopback(verdict)}});
}

}  // namespace rdmi::json
