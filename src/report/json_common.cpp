// Shared JSON building blocks.
#include "report/json_common.hpp"

namespace rdmi::json {

std::string dump(const Json& document) {
    return document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Json provenance(const Provenance& source) {
    return Json{{"kind", source.kind}, {"ref", source.ref}};
}

Json gap(const Gap& gap) {
    return Json{{"reason", to_string(gap.reason)}, {"message", gap.message}};
}

Json optional_gap(const std::optional<Gap>& maybe) {
    return maybe ? gap(*maybe) : Json(nullptr);
}

Json sourced(const Sourced<std::string>& value) {
    Json out{{"value", value.value ? Json(*value.value) : Json(nullptr)},
             {"source", provenance(value.source)}};
    if (value.gap) out["gap"] = gap(*value.gap);
    return out;
}

Json check(const Check& check) {
    Json sources = Json::array();
    for (const auto& source : check.sources) sources.push_back(provenance(source));
    return Json{
        {"id", check.id.str()},
        {"status", to_string(check.status)},
        {"message", check.message},
        {"remediation", check.remediation.empty() ? Json(nullptr) : Json(check.remediation)},
        {"sources", std::move(sources)}};
}

Json checks(const std::vector<Check>& list) {
    Json out = Json::array();
    for (const auto& item : list) out.push_back(check(item));
    return out;
}

Json status_counts(const StatusCounts& counts) {
    return Json{
        {"pass", counts.pass}, {"fail", counts.fail}, {"skip", counts.skip}, {"info", counts.info}};
}

}  // namespace rdmi::json
