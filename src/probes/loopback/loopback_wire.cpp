// The verdict's wire format between the isolated child and the parent: private JSON, not a
// published schema (the loopback document is built by report/loopback_json from the verdict).
#include <nlohmann/json.hpp>

#include "context/wire_json.hpp"
#include "probes/loopback/loopback_run.hpp"

namespace rdmi::loopback {
namespace {

using Json = nlohmann::json;

Json encode_error(const std::optional<DocaFailure>& error) {
    if (!error) return nullptr;
    return Json{{"call", error->call},
                {"code", error->code},
                {"name", error->name},
                {"description", error->description}};
}

std::optional<DocaFailure> decode_error(const Json& j) {
    if (j.is_null()) return std::nullopt;
    return DocaFailure{j.at("call").get<std::string>(), j.at("code").get<int>(),
                       j.at("name").get<std::string>(), j.at("description").get<std::string>()};
}

StepOutcome outcome_from(const std::string& name) {
    for (auto outcome :
         {StepOutcome::pass, StepOutcome::fail, StepOutcome::skip, StepOutcome::timeout}) {
        if (to_string(outcome) == name) return outcome;
    }
    throw std::invalid_argument("unknown step outcome '" + name + "'");
}

Status status_from(const std::string& name) {
    for (auto status : {Status::pass, Status::fail, Status::skip, Status::info}) {
        if (to_string(status) == name) return status;
    }
    throw std::invalid_argument("unknown status '" + name + "'");
}

}  // namespace

std::string encode_verdict(const LoopbackVerdict& verdict) {
    Json steps = Json::array();
    for (const auto& step : verdict.steps) {
        steps.push_back(Json{{"id", step.id},
                             {"level", step.level},
                             {"outcome", to_string(step.outcome)},
                             {"duration_ms", step.duration_ms},
                             {"message", step.message},
                             {"error", encode_error(step.error)}});
    }
    Json j{{"steps", steps},
           {"level_requested", verdict.level_requested},
           {"libraries", verdict.libraries},
           {"teardown",
            {{"released", verdict.teardown.released},
             {"errors", verdict.teardown.errors},
             {"complete", verdict.teardown.complete}}},
           {"device", nullptr},
           {"measurements", nullptr},
           {"mismatch_offset", nullptr},
           {"selftest", nullptr}};
    if (verdict.device) {
        j["device"] =
            Json{{"pci_addr", verdict.device->pci_addr}, {"ibdev", verdict.device->ibdev}};
    }
    if (const auto& m = verdict.measurements) {
        j["measurements"] = Json{{"bytes", m->bytes},        {"iterations", m->iterations},
                                 {"min", m->latency_min_us}, {"median", m->latency_median_us},
                                 {"max", m->latency_max_us}, {"bandwidth", nullptr}};
        if (m->bandwidth_mb_s) j["measurements"]["bandwidth"] = *m->bandwidth_mb_s;
    }
    if (verdict.mismatch_offset) j["mismatch_offset"] = *verdict.mismatch_offset;
    if (const auto& s = verdict.selftest) {
        j["selftest"] = Json{{"result", to_string(s->result)},
                             {"objects", s->objects},
                             {"expected", s->expected},
                             {"returned", s->returned},
                             {"message", s->message}};
    }
    return j.dump();
}

Result<LoopbackVerdict> decode_verdict(std::string_view text) {
    return decode_wire_json<LoopbackVerdict>(
        text, "verdict", "loopback: the child's verdict is unreadable", [](const Json& j) {
            LoopbackVerdict verdict;
            for (const auto& s : j.at("steps")) {
                verdict.steps.push_back(
                    LoopbackStep{s.at("id").get<std::string>(), s.at("level").get<int>(),
                                 outcome_from(s.at("outcome").get<std::string>()),
                                 s.at("duration_ms").get<double>(),
                                 s.at("message").get<std::string>(), decode_error(s.at("error"))});
            }
            verdict.level_requested = j.at("level_requested").get<int>();
            verdict.libraries = j.at("libraries").get<std::vector<std::string>>();
            const auto& t = j.at("teardown");
            verdict.teardown.released = t.at("released").get<int>();
            verdict.teardown.errors = t.at("errors").get<std::vector<std::string>>();
            verdict.teardown.complete = t.at("complete").get<bool>();
            if (const auto& d = j.at("device"); !d.is_null()) {
                verdict.device = LoopbackDevice{d.at("pci_addr").get<std::string>(),
                                                d.at("ibdev").get<std::string>()};
            }
            if (const auto& m = j.at("measurements"); !m.is_null()) {
                LoopbackMeasurements measurements;
                measurements.bytes = m.at("bytes").get<std::size_t>();
                measurements.iterations = m.at("iterations").get<int>();
                measurements.latency_min_us = m.at("min").get<double>();
                measurements.latency_median_us = m.at("median").get<double>();
                measurements.latency_max_us = m.at("max").get<double>();
                if (!m.at("bandwidth").is_null())
                    measurements.bandwidth_mb_s = m.at("bandwidth").get<double>();
                verdict.measurements = measurements;
            }
            if (const auto& o = j.at("mismatch_offset"); !o.is_null())
                verdict.mismatch_offset = o.get<std::size_t>();
            if (const auto& s = j.at("selftest"); !s.is_null()) {
                verdict.selftest = LoopbackSelftest{
                    status_from(s.at("result").get<std::string>()),
                    s.at("objects").get<std::string>(), s.at("expected").get<std::string>(),
                    s.at("returned").get<std::string>(), s.at("message").get<std::string>()};
            }
            finish_verdict(verdict);
            return verdict;
        });
}

}  // namespace rdmi::loopback
