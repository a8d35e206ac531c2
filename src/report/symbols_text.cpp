// Human text of a symbols audit. DOCA headers carry thousands of declarations, so the default
// output aggregates (docs/reference/symbol-stability.md#which-source-wins); -v lists every
// symbol.
#include "report/symbols_text.hpp"

#include "build_info.hpp"
#include "report/terminal_text.hpp"

namespace rdmi::text {
namespace {

constexpr std::size_t kListedByDefault = 10;

std::string name_list(const TextStyle& style, const std::vector<std::string>& names) {
    std::string out;
    const std::size_t shown =
        style.verbosity > 0 ? names.size() : std::min(names.size(), kListedByDefault);
    for (std::size_t i = 0; i < shown; ++i) out += "    " + terminal_safe(names[i]) + "\n";
    if (shown < names.size())
        out += "    ... and " + std::to_string(names.size() - shown) + " more (-v lists all)\n";
    return out;
}

std::string section(const TextStyle& style, const std::string& title,
                    const std::vector<std::string>& names) {
    if (names.empty()) return {};
    return "  " + title + " (" + std::to_string(names.size()) + "):\n" + name_list(style, names);
}

std::string summary(const TextStyle& style, const SymbolsFacts& facts) {
    const auto& audit = facts.audit;
    const auto& c = audit.counts;
    std::string out = "Library: " + terminal_safe(facts.library.path);
    if (!facts.library.soname.empty())
        out += " (soname " + terminal_safe(facts.library.soname) + ")";
    out += "\n";
    if (!facts.module.empty()) {
        out += "  module " + terminal_safe(facts.module) + " " +
               terminal_safe(facts.module_version) + " (" + terminal_safe(facts.pc_path) + ")\n";
    }
    out += "  " + terminal_safe(facts.library.machine) + ", " +
           std::to_string(facts.library.elf_class) + "-bit; version nodes:";
    if (facts.version_defs.empty()) out += " none";
    for (const auto& node : facts.version_defs) out += " " + terminal_safe(node);
    out += "\n  prefix '" + terminal_safe(audit.prefix) +
           "': " + std::to_string(audit.symbols.size()) +
           " symbols: " + std::to_string(c.experimental) + " experimental, " +
           std::to_string(c.stable) + " stable, " + std::to_string(c.deprecated) + " deprecated, " +
           std::to_string(c.unknown) + " unknown\n";
    std::string sources;
    if (audit.version_nodes_mark_stability) sources += "version nodes, ";
    if (audit.archive_sections_mark_stability) sources += "archive sections, ";
    if (audit.headers_scanned) sources += "headers (" + terminal_safe(facts.headers_dir) + "), ";
    if (facts.runtime.loaded) sources += "dlsym/dlvsym, ";
    out += "  evidence from: " +
           (sources.empty() ? std::string("nothing that marks stability") +
                                  " (every verdict is unknown, not guessed)"
                            : sources.substr(0, sources.size() - 2)) +
           "\n";
    out +=
        section(style, "declared but not exported (link will fail)", audit.declared_not_exported);
    out += section(style, "exported but declared in no header", audit.exported_not_declared);
    out += section(style, "sources disagree", audit.disagreements);
    if (facts.loader) {
        const auto& p = facts.loader->prediction;
        out += "  loader: " + terminal_safe(p.soname) + " -> " +
               (p.path ? terminal_safe(*p.path) + " (" + std::string(to_string(p.source)) + ")"
                       : std::string("not found"));
        if (!p.path && !p.cache_unread.empty()) out += " (" + terminal_safe(p.cache_unread) + ")";
        if (facts.loader->other_file) out += "  ** not the audited file **";
        out += "\n";
    }
    if (facts.runtime.loaded) {
        out += "  runtime: loaded " + terminal_safe(facts.runtime.loaded_path) + ", " +
               std::to_string(facts.runtime.resolved) + " resolved\n";
        out += section(style, "exported but not resolved at run time", facts.runtime.unresolved);
    } else if (facts.runtime.gap) {
        out += "  runtime: " + terminal_safe(facts.runtime.gap->message) + "\n";
    }
    return out;
}

std::string application(const TextStyle& style, const SymbolsFacts& facts) {
    if (!facts.app) return {};
    const AppAudit& app = *facts.app;
    std::string out = "\nApplication: " + terminal_safe(*facts.application) + " (" +
                      std::to_string(app.dependencies.size()) + " doca_* dependencies)\n";
    if (const auto verdict = app_load_verdict(facts)) {
        out += "  loads: " + std::string(to_string(verdict->verdict)) + "\n";
        for (const auto& reason : verdict->reasons) out += "    " + terminal_safe(reason) + "\n";
    }
    if (facts.app_load) {
        const AppLoadFacts& load = *facts.app_load;
        out += "  RUNPATH: " + (load.has_runpath ? terminal_safe(load.runpath) : "none") +
               "; RPATH: " + (load.rpath.empty() ? "none" : terminal_safe(load.rpath)) +
               (load.has_runpath && !load.rpath.empty() ? " (ignored: RUNPATH is set)" : "") +
               "; BIND_NOW: " + (load.bind_now ? "yes" : "no") + "\n";
        for (const auto& l : load.libraries) {
            out += "  " + terminal_safe(l.soname) + " -> " +
                   (l.path ? terminal_safe(*l.path) + " (" + terminal_safe(l.via) + ")"
                           : std::string("not found")) +
                   "\n";
        }
        for (const auto& note : load.notes) out += "  note: " + terminal_safe(note) + "\n";
    }
    // As the JSON lists them (dependencies[].stability): a deprecated call works today and
    // goes away in a later release.
    std::vector<std::string> deprecated;
    for (const auto& d : app.dependencies) {
        if (d.stability == Stability::deprecated) deprecated.push_back(d.name);
    }
    std::vector<std::string> missing = app.missing;
    missing.insert(missing.end(), app.missing_versions.begin(), app.missing_versions.end());
    out += section(style, "would not resolve", missing);
    out += section(style, "experimental, not accepted", app.unaccepted_experimental);
    out += section(style, "deprecated", deprecated);
    out += section(style, "archive members not read (their needs are unknown)", app.unread);
    if (app.unreadable) out += "  not read: " + terminal_safe(*app.unreadable) + "\n";
    out += section(style, "built for another platform than the library", app.foreign);
    out += section(style, "experimental, held as strings (dlsym?)", app.named_in_data);
    if (style.verbosity > 0) {
        for (const auto& d : app.dependencies) {
            out += "    " + terminal_safe(d.name) +
                   (d.version.empty() ? "" : "@" + terminal_safe(d.version)) + "  " +
                   std::string(to_string(d.resolution)) + "  " +
                   std::string(to_string(d.stability)) + (d.accepted ? "  accepted" : "") + "\n";
        }
    }
    return out;
}

std::string every_symbol(const SymbolsFacts& facts) {
    std::string out = "\nSymbols:\n";
    for (const auto& v : facts.audit.symbols) {
        out += "  " + terminal_safe(v.name) + "  " + std::string(to_string(v.stability));
        if (!v.exported) out += "  (not exported)";
        if (!v.declared && facts.audit.headers_scanned) out += "  (undeclared)";
        if (!v.sources_agree) out += "  (sources disagree)";
        out += "\n";
        for (const auto& e : v.evidence) {
            out += "      " + std::string(to_string(e.source)) + ": " +
                   std::string(to_string(e.says)) + "  " + terminal_safe(e.detail) + "  [" +
                   terminal_safe(e.ref) + "]\n";
        }
    }
    return out;
}

}  // namespace

std::string symbols(const TextStyle& style, const SymbolsFacts& facts) {
    // Quiet: failures and warnings only, as for the full report.
    if (style.verbosity < 0) return render_checks(style, facts.checks);
    std::string out = std::string(build_info::kToolName) + " " + build_info::kVersion +
                      ": symbol stability audit\n\n";
    out += summary(style, facts);
    out += application(style, facts);
    if (style.verbosity > 0) out += every_symbol(facts);
    out += "\n" + render_checks(style, facts.checks);
    out += "\n" + render_verdict(style, facts.checks);
    return out;
}

}  // namespace rdmi::text
