// The symbols probe's JSON: the members the report's symbols section and the `symbols`
// document share, and the report's section itself.
#include "probes/symbols/symbols_json.hpp"

namespace rdmi::json {
namespace {

Json string_or_null(const std::string& text) {
    return text.empty() ? Json(nullptr) : Json(text);
}

Json counts(const StabilityCounts& c) {
    return object({{"experimental", c.experimental},
                   {"stable", c.stable},
                   {"deprecated", c.deprecated},
                   {"unknown", c.unknown}});
}

Json loader(const std::optional<LoaderFacts>& maybe) {
    if (!maybe) return nullptr;
    const LoaderFacts& l = *maybe;
    return object({{"soname", l.prediction.soname},
                   {"path", l.prediction.path ? Json(*l.prediction.path) : Json(nullptr)},
                   {"real_path", string_or_null(l.predicted_real_path)},
                   {"via", to_string(l.prediction.source)},
                   {"ld_library_path_used", l.ld_library_path_used},
                   {"other_file", l.other_file},
                   {"searched", l.prediction.searched},
                   {"notes", l.prediction.notes}});
}

Json runtime(const RuntimeFacts& rt) {
    return object({{"loaded", rt.loaded},
                   {"path", string_or_null(rt.path)},
                   {"loaded_path", string_or_null(rt.loaded_path)},
                   {"resolved", rt.resolved},
                   {"unresolved", rt.unresolved},
                   {"foreign", rt.foreign},
                   {"gap", optional_gap(rt.gap)}});
}

// The one-line answer first, then what the loader reads to find the library.
Json loads(const SymbolsFacts& facts) {
    const auto verdict = app_load_verdict(facts);
    Json libraries = Json::array();
    Json search = nullptr;
    if (facts.app_load) {
        const AppLoadFacts& load = *facts.app_load;
        for (const auto& l : load.libraries) {
            libraries.push_back(object({{"soname", l.soname},
                                        {"path", l.path ? Json(*l.path) : Json(nullptr)},
                                        {"via", string_or_null(l.via)},
                                        {"searched", l.searched},
                                        {"ld_so_cache_unread", string_or_null(l.cache_unread)},
                                        {"would_find", string_or_null(l.would_find)}}));
        }
        search = object({{"rpath", string_or_null(load.rpath)},
                         {"runpath", load.has_runpath ? Json(load.runpath) : Json(nullptr)},
                         {"bind_now", load.bind_now},
                         {"notes", load.notes}});
    }
    return object({{"verdict", verdict ? to_string(verdict->verdict) : "unknown"},
                   {"reasons", verdict ? verdict->reasons : std::vector<std::string>{}},
                   {"dynamic", std::move(search)},
                   {"libraries", std::move(libraries)}});
}

}  // namespace

Json symbols_library(const SymbolsFacts& facts) {
    const LibraryIdentity& id = facts.library;
    Json archive = nullptr;
    if (!facts.archive_path.empty()) {
        archive = object({{"path", facts.archive_path},
                          {"sections_mark_stability", facts.audit.archive_sections_mark_stability},
                          {"gap", optional_gap(facts.archive_gap)}});
    }
    return object({{"path", id.path},
                   {"real_path", id.real_path},
                   {"soname", string_or_null(id.soname)},
                   {"machine", id.machine},
                   {"class", id.elf_class},
                   {"endian", to_string(id.endian)},
                   {"needed", id.needed},
                   {"version_nodes", facts.version_defs},
                   {"version_nodes_mark_stability", facts.audit.version_nodes_mark_stability},
                   {"archive", std::move(archive)}});
}

Json symbols_headers(const SymbolsFacts& facts) {
    Json scanned = Json::array();
    for (const auto& h : facts.headers) {
        scanned.push_back(object({{"path", h.path},
                                  {"declarations", h.declarations},
                                  {"notes", h.notes},
                                  {"gap", optional_gap(h.gap)}}));
    }
    return object({{"dir", string_or_null(facts.headers_dir)},
                   {"scanned", facts.audit.headers_scanned},
                   {"files", std::move(scanned)},
                   {"skipped_device_side", facts.skipped_headers}});
}

Json symbols_application(const SymbolsFacts& facts) {
    if (!facts.app) return nullptr;
    const AppAudit& app = *facts.app;
    Json deps = Json::array();
    for (const auto& d : app.dependencies) {
        deps.push_back(object({{"name", d.name},
                               {"version", string_or_null(d.version)},
                               {"version_file", string_or_null(d.version_file)},
                               {"member", string_or_null(d.member)},
                               {"resolution", to_string(d.resolution)},
                               {"provider", string_or_null(d.provider)},
                               {"stability", to_string(d.stability)},
                               {"accepted", d.accepted}}));
    }
    Json needs = Json::array();
    for (const auto& n : app.version_needs) {
        needs.push_back(
            object({{"file", n.file}, {"version", n.version}, {"provided", n.provided}}));
    }
    return object({{"path", *facts.application},
                   {"kind", app.is_archive ? "archive" : to_string(app.kind)},
                   {"loads", loads(facts)},
                   {"accepted_experimental", facts.accepted_experimental},
                   {"dependencies", std::move(deps)},
                   {"version_needs", std::move(needs)},
                   {"missing", app.missing},
                   {"missing_versions", app.missing_versions},
                   {"experimental", app.experimental},
                   {"unaccepted_experimental", app.unaccepted_experimental},
                   {"unread_members", app.unread}});
}

Json symbols_target(const SymbolsFacts& facts) {
    return object({{"module", string_or_null(facts.module)},
                   {"module_version", string_or_null(facts.module_version)},
                   {"pc_path", string_or_null(facts.pc_path)},
                   {"libdir", string_or_null(facts.libdir)},
                   {"prefix", facts.audit.prefix}});
}

void add_symbols_audit_members(Json& out, const SymbolsFacts& facts) {
    auto& members = out.get_ref<Json::object_t&>();
    members.emplace("counts", counts(facts.audit.counts));
    members.emplace("declared_not_exported", facts.audit.declared_not_exported);
    members.emplace("exported_not_declared", facts.audit.exported_not_declared);
    members.emplace("disagreements", facts.audit.disagreements);
    members.emplace("loader", loader(facts.loader));
    members.emplace("runtime", runtime(facts.runtime));
}

Json symbols_summary(const SymbolsFacts& facts) {
    Json summary = object({{"module", string_or_null(facts.module)},
                           {"library", facts.library.path},
                           {"soname", string_or_null(facts.library.soname)},
                           {"prefix", facts.audit.prefix},
                           {"version_nodes", facts.version_defs},
                           {"headers_scanned", facts.audit.headers_scanned}},
                          kSymbolsAuditMembers + 1);
    add_symbols_audit_members(summary, facts);
    summary.get_ref<Json::object_t&>().emplace("gap", nullptr);
    return summary;
}

Json symbols_gap(const Gap& gap) {
    return object({{"gap", json::gap(gap)}});
}

}  // namespace rdmi::json
