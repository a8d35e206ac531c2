// The checks a symbols audit yields. Ids are interface: symbols-exported, symbols-stability,
// symbols-agreement, loader-path, symbols-runtime, app-resolves, app-experimental.
#include <algorithm>
#include <optional>
#include <string>

#include "core/failed_check.hpp"
#include "probes/symbols/symbols.hpp"
#include "probes/symbols/symbols_findings.hpp"

namespace rdmi {
namespace {

constexpr std::size_t kNamesInMessage = 5;

// "a, b, c and 4 more": messages stay one line however many names there are.
std::string some(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < kNamesInMessage; ++i) {
        if (i > 0) out += ", ";
        out += names[i];
    }
    if (names.size() > kNamesInMessage)
        out += " and " + std::to_string(names.size() - kNamesInMessage) + " more";
    return out;
}

std::string library_label(const SymbolsFacts& facts) {
    return facts.library.soname.empty() ? facts.library.path : facts.library.soname;
}

// "doca_rdmi_poster.h:40": where the header declares `name`, or "a scanned header".
std::string header_ref(const LibraryAudit& audit, const std::string& name) {
    if (const auto* verdict = audit.find(name)) {
        for (const auto& ev : verdict->evidence) {
            if (ev.source == EvidenceSource::header && !ev.ref.empty()) return std::string(ev.ref);
        }
    }
    return "a scanned header";
}

// The DOCA release the library's file name carries (libdoca_rdmi.so.3.3.0047), if it does.
std::optional<DocaVersion> library_release(const SymbolsFacts& facts) {
    const std::string file =
        facts.library.real_path.empty() ? facts.library.path : facts.library.real_path;
    const auto so = file.rfind(".so.");
    if (so == std::string::npos) return std::nullopt;
    return parse_doca_version(file.substr(so + 4));
}

// The fix for functions the installed headers declare and the library does not export: the
// report's audit (rdmi-symbols-exported) and an application's check (app-resolves) word it
// the same, with the header's release (its module's .pc) and the library's (its file name).
// A library no newer than its header lacks what the header promises: the library is older
// than its header, and building "against the installed headers" is what fails. Only a
// library newer than its header points at a mixed install the other way round.
std::string header_ahead_fix(const SymbolsFacts& facts, const std::vector<std::string>& names) {
    const auto header = parse_doca_version(facts.module_version);
    const auto library = library_release(facts);
    const std::string lib = library_label(facts);
    const std::string header_text =
        "header: " + (header ? "DOCA " + header->to_string() : "release unknown, no .pc names it");
    const std::string library_text =
        lib + ": " + (library ? "DOCA " + library->to_string() : "release unknown");
    if (header && library && compare_doca_versions(*library, *header) > 0) {
        return "the headers and the library come from different DOCA releases (" + header_text +
               "; " + library_text + "): reinstall the module's packages at one version";
    }
    std::string fix =
        "the library is older than its header (" + header_text + "; " + library_text + "): ";
    if (header && library && same_doca_version(*header, *library)) {
        // One release on both sides: reinstalling would not help.
        return fix + "the header declares what this release does not implement; do not call " +
               some(names) + " on DOCA " + header->to_string() +
               " (wait for a release whose library exports it)";
    }
    return fix +
           "install the library of the headers' release (reinstall the module's packages "
           "at one version), or do not call " +
           some(names);
}

Check exported_check(const SymbolsFacts& facts, const FindingInfo& id) {
    const auto& audit = facts.audit;
    Check check{id, Status::pass, "", "", {{"file", facts.library.path}}};
    if (!audit.headers_scanned) {
        check.status = Status::info;
        check.message = library_label(facts) + ": " + std::to_string(audit.symbols.size()) +
                        " symbols exported; no headers scanned, so nothing to compare with";
        return check;
    }
    check.sources.push_back({"file", facts.headers_dir});
    if (!audit.declared_not_exported.empty()) {
        check.status = Status::fail;
        std::vector<std::string> where;
        for (const auto& name : audit.declared_not_exported) {
            where.push_back(name + " (" + header_ref(audit, name) + ")");
        }
        check.message = std::to_string(audit.declared_not_exported.size()) +
                        " declared in the headers but not exported by " + library_label(facts) +
                        " (link will fail): " + some(where);
        check.remediation = header_ahead_fix(facts, audit.declared_not_exported);
        return check;
    }
    check.message = "every declaration with prefix '" + audit.prefix + "' is exported by " +
                    library_label(facts);
    return check;
}

Check stability_check(const SymbolsFacts& facts, const FindingInfo& id) {
    const auto& c = facts.audit.counts;
    std::string message = library_label(facts) + ": " + std::to_string(c.experimental) +
                          " experimental, " + std::to_string(c.stable) + " stable, " +
                          std::to_string(c.deprecated) + " deprecated, " +
                          std::to_string(c.unknown) + " unknown";
    if (!facts.audit.version_nodes_mark_stability && !facts.audit.headers_scanned &&
        !facts.audit.archive_sections_mark_stability)
        message += " (the library carries no stability marks and no headers were scanned)";
    return Check{id, Status::info, message, "", {{"file", facts.library.path}}};
}

// Headers the scan could not read (over the size cap, unreadable): their declarations are not
// compared, so an agreement that leaves them out says so and does not pass.
std::string unread_headers(const SymbolsFacts& facts) {
    std::string out;
    for (const auto& header : facts.headers) {
        if (header.gap) out += (out.empty() ? "" : "; ") + header.gap->message;
    }
    return out;
}

Check agreement_check(const SymbolsFacts& facts, const FindingInfo& id) {
    const auto& audit = facts.audit;
    Check check{id, Status::info, "", "", {{"file", facts.library.path}}};
    const std::string unread = unread_headers(facts);
    if (audit.disagreements.empty() && audit.exported_not_declared.empty()) {
        if (!unread.empty()) {
            check.message =
                "headers read, version nodes, sections and the loader agree; headers "
                "not read, so not compared: " +
                unread;
            check.remediation = "check those files (a DOCA header is kilobytes)";
            return check;
        }
        check.status = Status::pass;
        check.message = "headers, version nodes, sections and the loader agree";
        return check;
    }
    std::string message;
    if (!audit.disagreements.empty()) {
        std::vector<std::string> cases;
        for (const auto& name : audit.disagreements) {
            const auto* verdict = audit.find(name);
            std::string header;
            for (const auto& ev :
                 verdict != nullptr ? verdict->evidence : std::span<const Evidence>{}) {
                if (ev.source == EvidenceSource::header) header = ev.detail;
            }
            cases.push_back(name + " is " +
                            std::string(verdict != nullptr ? to_string(verdict->stability)
                                                           : std::string_view("unknown")) +
                            (header.empty() ? "" : " though its header says " + header));
        }
        // Who wins: the binary decides what the loader binds, the header what the compiler
        // accepts; shipping code meets the binary.
        message = std::to_string(audit.disagreements.size()) +
                  " symbols whose sources disagree, classified by the binary (its version "
                  "node decides what the loader binds; the header only what the compiler "
                  "accepts): " +
                  some(cases);
        check.remediation =
            "ship as the binary says: one it marks experimental can change or vanish in the next "
            "release whatever the header promises; call it only if you accept that (list it in "
            "check --allow-experimental), or wait for a release whose header and library agree";
    }
    if (!audit.exported_not_declared.empty()) {
        if (!message.empty()) message += "; ";
        message += std::to_string(audit.exported_not_declared.size()) +
                   " exported but declared in no header: " + some(audit.exported_not_declared);
    }
    if (!unread.empty()) message += "; headers not read, so not compared: " + unread;
    check.message = message;
    return check;
}

Check loader_check(const SymbolsFacts& facts, const FindingInfo& id) {
    const LoaderFacts& loader = *facts.loader;
    const auto& p = loader.prediction;
    Check check{id, Status::pass, "", "", {{"derived", "ld.so search order"}}};
    if (!p.path) {
        check.status = Status::info;
        // Says so when the cache was not read: "not in ld.so.cache" would claim a search that
        // did not happen (ldconfig may never have run on this root).
        check.message = p.soname + ": the loader would not find it (" +
                        (loader.ld_library_path_used ? "LD_LIBRARY_PATH, " : "") +
                        (p.cache_unread.empty() ? "ld.so.cache, default dirs"
                                                : "default dirs; " + p.cache_unread) +
                        "); applications need LD_LIBRARY_PATH, an rpath or an ld.so.conf.d entry";
        return check;
    }
    check.sources.push_back({"file", *p.path});
    if (!loader.other_file) {
        check.message = p.soname + ": the loader would map " + *p.path + " (" +
                        std::string(to_string(p.source)) + "), the audited file";
        return check;
    }
    check.message = p.soname + ": the loader would map " + loader.predicted_real_path + " (" +
                    std::string(to_string(p.source)) + "), not " + facts.library.real_path +
                    (facts.module.empty() ? "" : " from " + facts.module + "'s libdir");
    if (facts.module.empty()) {
        check.status = Status::info;
        return check;
    }
    return failed(std::move(check),
                  "programs built against this install run against another DOCA: fix "
                  "LD_LIBRARY_PATH or the ld.so.conf.d entries (then ldconfig) so that both name "
                  "the same libdir");
}

Check runtime_check(const SymbolsFacts& facts, const FindingInfo& id) {
    const RuntimeFacts& rt = facts.runtime;
    Check check{id, Status::pass, "", "", {{"api", "dlopen/dlsym/dlvsym"}}};
    if (!rt.loaded) {
        const bool failed =
            rt.gap && (rt.gap->reason == GapReason::error || rt.gap->reason == GapReason::timeout);
        check.status = failed ? Status::fail : Status::info;
        check.message = rt.gap ? rt.gap->message : "not loaded";
        if (failed)
            check.remediation = "an application loading this library would fail the same way";
        return check;
    }
    check.sources.push_back({"file", rt.loaded_path});
    if (!rt.unresolved.empty()) {
        check.status = Status::fail;
        check.message = std::to_string(rt.unresolved.size()) + " exported names not resolved by " +
                        rt.loaded_path + ": " + some(rt.unresolved);
        return check;
    }
    check.message = "loaded " + rt.loaded_path + " in a child: " + std::to_string(rt.resolved) +
                    " names resolved";
    if (!rt.foreign.empty()) check.message += "; defined by another object: " + some(rt.foreign);
    return check;
}

// A missing release node ("libdoca_rdmi.so.3:DOCA_3.3") names the release the application was
// built against: the fix can name it too.
// Only when the installed module is older (or unknown, as with --lib): a library whose .pc
// already says that release but lacks the node is another problem, and gets the general fix.
std::string app_fix(const std::vector<std::string>& missing_versions,
                    const std::string& module_version) {
    const auto installed = parse_doca_version(module_version);
    for (const auto& entry : missing_versions) {
        const auto node = entry.rfind(":DOCA_");
        if (node == std::string::npos) continue;
        const std::string release = entry.substr(node + 6);
        const auto needed = parse_doca_version(release + ".0");
        if (!needed || (installed && compare_doca_versions(*installed, *needed) >= 0)) continue;
        return "the application was built against DOCA " + release + " (it needs the " +
               entry.substr(node + 1) + " node): install DOCA " + release +
               " or newer, or rebuild it against the installed headers";
    }
    return "build against the installed headers, or install the DOCA release the application "
           "was built for";
}

void app_checks(const SymbolsFacts& facts, std::vector<Check>& checks) {
    const AppAudit& app = *facts.app;
    const Provenance from{"file", *facts.application};
    Check resolves{finding::app_resolves, Status::pass, "", "", {from}};
    std::vector<std::string> missing = app.missing;
    missing.insert(missing.end(), app.missing_versions.begin(), app.missing_versions.end());
    if (!missing.empty()) {
        resolves.status = Status::fail;
        resolves.message = std::to_string(missing.size()) + " needed by " + *facts.application +
                           " not provided by " + library_label(facts) + ": " + some(missing);
        // A missing function the installed header declares is the install's own fault: the
        // same fix as the report's rdmi-symbols-exported, not "build against the headers".
        std::vector<std::string> declared;
        for (const auto& name : app.missing) {
            const auto& lacking = facts.audit.declared_not_exported;
            if (std::find(lacking.begin(), lacking.end(), name) != lacking.end())
                declared.push_back(name);
        }
        resolves.remediation = declared.empty()
                                   ? app_fix(app.missing_versions, facts.module_version)
                                   : header_ahead_fix(facts, declared);
    } else {
        resolves.message = std::to_string(app.dependencies.size()) +
                           " doca_* dependencies checked; none would fail to resolve";
    }
    Check experimental{finding::app_experimental, Status::pass, "", "", {from}};
    if (!app.unaccepted_experimental.empty()) {
        experimental.status = Status::fail;
        experimental.message =
            std::to_string(app.unaccepted_experimental.size()) +
            " experimental calls not on the allow-list: " + some(app.unaccepted_experimental);
        experimental.remediation =
            "review them and add the accepted ones to --allow-experimental (names or @FILE)";
    } else {
        experimental.message =
            std::to_string(app.experimental.size()) + " experimental dependencies, all accepted";
    }
    // A provided name whose stability nothing marks may be experimental: no pass can be given
    // for it, unless the allow-list accepts it, experimental or not. Found unaccepted ones fail
    // regardless.
    std::vector<std::string> unknown;
    std::size_t unknown_accepted = 0;
    for (const auto& dep : app.dependencies) {
        if (dep.resolution != Resolution::provided || dep.stability != Stability::unknown) continue;
        if (dep.accepted) {
            ++unknown_accepted;
        } else {
            unknown.push_back(dep.name);
        }
    }
    if (unknown.empty() && unknown_accepted > 0 && experimental.status == Status::pass) {
        experimental.message += "; " + std::to_string(unknown_accepted) +
                                " with no stability evidence, accepted by the allow-list";
    }
    if (!unknown.empty()) {
        const std::string why = std::to_string(unknown.size()) +
                                " dependencies with no stability evidence (no version nodes, "
                                "sections or header annotations): " +
                                some(unknown);
        if (experimental.status != Status::pass) {
            experimental.message += "; also " + why;
        } else {
            experimental.status = Status::skip;
            experimental.message = "cannot be checked: " + why;
            experimental.remediation =
                "install DOCA's headers (doca-rdmi includedir) so they can be read";
        }
    }
    // A member that could not be read may need anything: what was read cannot pass for the
    // whole archive. A failure found in the readable members stands.
    const std::string bytecode_fix =
        "build with -ffat-lto-objects (GCC), or pass the linked binary, then rerun";
    if (!app.unread.empty()) {
        const std::string unread = std::to_string(app.unread.size()) + " archive member(s) of " +
                                   *facts.application + " not read: " + some(app.unread);
        for (Check* check : {&resolves, &experimental}) {
            if (check->status != Status::pass) {
                check->message += "; also " + unread;
                continue;
            }
            check->status = Status::skip;
            check->message = "cannot be checked completely: " + unread;
            check->remediation = app.bytecode ? bytecode_fix
                                              : "rebuild the archive from intact objects (ar t "
                                                "and readelf -h show the broken member), then "
                                                "rerun";
        }
    }
    // Compiler bytecode names nothing an ELF reader sees, nor does a statically linked program
    // or a file that is no code at all: "0 dependencies" would be a guess.
    if (app.unreadable) {
        for (Check* check : {&resolves, &experimental}) {
            check->status = Status::skip;
            check->message = "cannot be checked: " + *facts.application + ": " + *app.unreadable;
            check->remediation = app.bytecode
                                     ? bytecode_fix
                                     : "pass the dynamically linked application, or the objects or "
                                       "archive it is linked from, then rerun";
        }
    }
    // Built for another machine, class or byte order: the loader would never map this library
    // for it, so nothing it needs resolves here, whatever names both carry.
    if (!app.foreign.empty()) {
        const LibraryIdentity& lib = facts.library;
        const std::string why = *facts.application + " is built for " + some(app.foreign) + ", " +
                                library_label(facts) + " for " + lib.machine + ", ELF" +
                                std::to_string(lib.elf_class) + ", " +
                                std::string(to_string(lib.endian)) +
                                "-endian: the loader would never load it for the application";
        resolves.status = Status::fail;
        resolves.message = why;
        resolves.remediation =
            "audit it against the DOCA install of its own architecture (--root of that system, "
            "or --lib), or build it for " +
            facts.library.machine;
        if (experimental.status == Status::pass) {
            experimental.status = Status::skip;
            experimental.message = "cannot be checked against this library: " + why;
            experimental.remediation = resolves.remediation;
        } else {
            experimental.message += "; also " + why;
        }
    }
    // The symbols resolve only once the loader maps the library: one it would not find stops
    // the program as surely as a missing symbol. Without an ld.so.cache in the root that is no
    // prediction (ldconfig writes one from the root's ld.so.conf): the check cannot pass.
    if (facts.app_load) {
        for (const auto& lookup : facts.app_load->libraries) {
            if (lookup.path) continue;
            const std::string why = lookup.soname + ": the loader would not find it (" +
                                    std::to_string(lookup.searched.size()) + " places searched" +
                                    (lookup.cache_unread.empty() ? ", ld.so.cache among them"
                                                                 : "; " + lookup.cache_unread) +
                                    ")";
            if (resolves.status == Status::pass) {
                resolves.status = lookup.cache_unread.empty() ? Status::fail : Status::skip;
                resolves.message = lookup.cache_unread.empty() ? why : "cannot be checked: " + why;
                resolves.remediation = lookup.would_find;
            } else {
                resolves.message += "; also " + why;
            }
        }
    }
    // A name held as a string may reach dlsym(): not a proven call, so a warning; a pass
    // would hide it, a failure or skip already stops the gate and carries it along.
    if (!app.named_in_data.empty()) {
        const std::string named =
            std::to_string(app.named_in_data.size()) + " experimental name(s) held as strings in " +
            *facts.application +
            "'s data, not imported (a dlsym() route): " + some(app.named_in_data);
        if (experimental.status == Status::pass) {
            experimental.status = Status::warn;
            experimental.message = named;
            experimental.remediation =
                "check what the application looks up with dlsym(); add the accepted names to "
                "--allow-experimental";
        } else {
            experimental.message += "; also " + named;
        }
    }
    checks.push_back(std::move(resolves));
    checks.push_back(std::move(experimental));
}

}  // namespace

std::string_view to_string(LoadVerdict verdict) {
    switch (verdict) {
        case LoadVerdict::yes:
            return "yes";
        case LoadVerdict::no:
            return "no";
        case LoadVerdict::unknown:
            return "unknown";
    }
    return "unknown";
}

std::optional<AppLoadVerdict> app_load_verdict(const SymbolsFacts& facts) {
    if (!facts.app) return std::nullopt;
    const Check* resolves = nullptr;
    for (const auto& check : facts.checks) {
        if (check.id.is(finding::app_resolves)) resolves = &check;
    }
    AppLoadVerdict out;
    if (resolves == nullptr) return out;
    // The verdict is the gate's: check --app fails exactly when this says no.
    if (resolves->status != Status::fail && resolves->status != Status::skip) {
        out.verdict = LoadVerdict::yes;
        return out;
    }
    out.verdict = resolves->status == Status::fail ? LoadVerdict::no : LoadVerdict::unknown;
    const AppAudit& app = *facts.app;
    const std::string lib = library_label(facts);
    for (const auto& name : app.missing) out.reasons.push_back(name + ": not exported by " + lib);
    for (const auto& entry : app.missing_versions) {
        const auto colon = entry.rfind(':');
        out.reasons.push_back(colon == std::string::npos
                                  ? entry + ": version node not provided"
                                  : "version node " + entry.substr(colon + 1) + " of " +
                                        entry.substr(0, colon) + ": not provided by " + lib);
    }
    if (facts.app_load) {
        for (const auto& lookup : facts.app_load->libraries) {
            if (lookup.path) continue;
            out.reasons.push_back(
                lookup.soname + ": the loader would not find it" +
                (lookup.cache_unread.empty() ? "" : " (" + lookup.cache_unread + ")") + "; " +
                lookup.would_find);
        }
    }
    // What the check says when the reasons above do not cover it: a foreign or unread file.
    if (out.reasons.empty()) out.reasons.push_back(resolves->message);
    return out;
}

std::vector<Check> symbols_checks(const SymbolsFacts& facts, const SymbolsCheckIds& ids) {
    std::vector<Check> checks{exported_check(facts, *ids.exported),
                              stability_check(facts, *ids.stability),
                              agreement_check(facts, *ids.agreement)};
    if (facts.loader) checks.push_back(loader_check(facts, *ids.loader_path));
    checks.push_back(runtime_check(facts, *ids.runtime));
    if (facts.app) app_checks(facts, checks);
    return checks;
}

}  // namespace rdmi
