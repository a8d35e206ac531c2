// The install probe's section of the report: the modules, files and version sources it found.
#include "probes/install/install_json.hpp"

#include "probes/install/versions_json.hpp"

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

}  // namespace

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

}  // namespace rdmi::json
