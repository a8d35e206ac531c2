// JSON of the version matches and the consistency verdict (probes/install/version_consistency.hpp).
#include "probes/install/versions_json.hpp"

#include "probes/install/version_consistency.hpp"

namespace rdmi::json {

Json version_source(const VersionSource& src) {
    Json entry = object({{"name", src.name},
                         {"state", std::string(to_string(source_state(src)))},
                         {"raw", sourced(src.raw)}},
                        4);
    entry["normalized"] = src.version ? Json(src.version->to_string()) : Json(nullptr);
    return entry;
}

Json version_match(const VersionMatch& match) {
    Json sources = Json::array();
    for (const auto& src : match.sources) sources.push_back(version_source(src));
    return object({{"consistent", match.consistent},
                   {"state", std::string(to_string(match_state(match)))},
                   {"agreed", match.agreed ? Json(match.agreed->to_string()) : Json(nullptr)},
                   {"absent", match.absent},
                   {"unreadable", match.unreadable},
                   {"unparseable", match.unparseable},
                   {"disagreeing", match.disagreeing},
                   {"sources", std::move(sources)}});
}

Json consistency(const InstallFacts& install) {
    const Consistency verdict = judge_consistency(install);
    return object({{"consistent", verdict.consistent},
                   {"state", std::string(to_string(verdict.state))},
                   {"rdmi_stack", std::string(to_string(verdict.stack))},
                   {"contract_sources", std::string(to_string(verdict.contract))},
                   {"reason", verdict.reason},
                   {"rule", std::string(kConsistencyRule)}});
}

}  // namespace rdmi::json
