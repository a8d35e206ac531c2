// The finding catalog's renderings.
#include "report/findings_output.hpp"

#include "build_info.hpp"
#include "check/check_catalog.hpp"
#include "json/json_common.hpp"
#include "model/registry.hpp"

namespace rdmi::findings {

std::string catalog_json(const FindingInfo* only) {
    json::Json list = json::Json::array();
    for (const FindingInfo* info : check_catalog()) {
        if (only != nullptr && only != info) continue;
        list.push_back(json::object(
            {{"id", info->id},
             {"pattern", is_pattern(*info)},
             {"emitted_by", info->emitted_by},
             {"purposes", purpose_names(info->purposes)},
             {"meaning", info->meaning},
             {"fix", info->fix.empty() ? json::Json(nullptr) : json::Json(info->fix)}}));
    }
    return json::dump(json::object(
        {{"schema", kFindingsSchemaId},
         {"schema_version", "1.1.0"},
         {"tool", {{"name", build_info::kToolName}, {"version", build_info::kVersion}}},
         {"findings", std::move(list)}}));
}

std::string finding_text(const text::TextStyle& style, const FindingInfo& info) {
    constexpr std::size_t kIndent = 6;
    std::string out = std::string(info.id) + "  [" + std::string(info.emitted_by) + "]\n";
    out.append(kIndent, ' ');
    out += text::wrap(style, info.meaning, kIndent, kIndent) + "\n";
    out.append(kIndent, ' ');
    out += "for: " + purposes_text(info.purposes) + "\n";
    if (!info.fix.empty()) {
        out.append(kIndent, ' ');
        out += "fix: " + text::wrap(style, info.fix, kIndent + 5, kIndent + 5) + "\n";
    }
    return out;
}

std::string catalog_text(const text::TextStyle& style) {
    std::string out;
    for (const FindingInfo* info : check_catalog()) out += finding_text(style, *info);
    return out;
}

}  // namespace rdmi::findings
