// The checks a symbols audit yields. Ids are interface: symbols-exported, symbols-stability,
// symbols-agreement, loader-path, symbols-runtime, app-resolves, app-experimental.
#include <string>

#include "probes/symbols.hpp"

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

Check exported_check(const SymbolsFacts& facts) {
    const auto& audit = facts.audit;
    Check check{Finding::symbols_exported, Status::pass, "", "", {{"file", facts.library.path}}};
    if (!audit.headers_scanned) {
        check.status = Status::info;
        check.message = library_label(facts) + ": " + std::to_string(audit.symbols.size()) +
                        " symbols exported; no headers scanned, so nothing to compare with";
        return check;
    }
    check.sources.push_back({"file", facts.headers_dir});
    if (!audit.declared_not_exported.empty()) {
        check.status = Status::fail;
        check.message = std::to_string(audit.declared_not_exported.size()) +
                        " declared in the headers but not exported by " + library_label(facts) +
                        " (link will fail): " + some(audit.declared_not_exported);
        check.remediation =
            "the headers and the library come from different DOCA releases: reinstall the "
            "module's packages at one version";
        return check;
    }
    check.message = "every declaration with prefix '" + audit.prefix + "' is exported by " +
                    library_label(facts);
    return check;
}

Check stability_check(const SymbolsFacts& facts) {
    const auto& c = facts.audit.counts;
    std::string message = library_label(facts) + ": " + std::to_string(c.experimental) +
                          " experimental, " + std::to_string(c.stable) + " stable, " +
                          std::to_string(c.deprecated) + " deprecated, " +
                          std::to_string(c.unknown) + " unknown";
    if (!facts.audit.version_nodes_mark_stability && !facts.audit.headers_scanned &&
        !facts.audit.archive_sections_mark_stability)
        message += " (the library carries no stability marks and no headers were scanned)";
    return Check{
        Finding::symbols_stability, Status::info, message, "", {{"file", facts.library.path}}};
}

Check agreement_check(const SymbolsFacts& facts) {
    const auto& audit = facts.audit;
    Check check{Finding::symbols_agreement, Status::info, "", "", {{"file", facts.library.path}}};
    if (audit.disagreements.empty() && audit.exported_not_declared.empty()) {
        check.status = Status::pass;
        check.message = "headers, version nodes, sections and the loader agree";
        return check;
    }
    std::string message;
    if (!audit.disagreements.empty()) {
        message = std::to_string(audit.disagreements.size()) +
                  " symbols whose sources disagree: " + some(audit.disagreements);
    }
    if (!audit.exported_not_declared.empty()) {
        if (!message.empty()) message += "; ";
        message += std::to_string(audit.exported_not_declared.size()) +
                   " exported but declared in no header: " + some(audit.exported_not_declared);
    }
    check.message = message;
    return check;
}

Check loader_check(const SymbolsFacts& facts) {
    const LoaderFacts& loader = *facts.loader;
    const auto& p = loader.prediction;
    Check check{Finding::loader_path, Status::pass, "", "", {{"derived", "ld.so search order"}}};
    if (!p.path) {
        check.status = Status::info;
        check.message = p.soname + ": the loader would not find it (" +
                        (loader.ld_library_path_used ? "LD_LIBRARY_PATH, " : "") +
                        "ld.so.cache, default dirs); applications need LD_LIBRARY_PATH, an "
                        "rpath or an ld.so.conf.d entry";
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
    check.status = Status::fail;
    check.remediation =
        "programs built against this install run against another DOCA: fix LD_LIBRARY_PATH or "
        "the ld.so.conf.d entries (then ldconfig) so that both name the same libdir";
    return check;
}

Check runtime_check(const SymbolsFacts& facts) {
    const RuntimeFacts& rt = facts.runtime;
    Check check{Finding::symbols_runtime, Status::pass, "", "", {{"api", "dlopen/dlsym/dlvsym"}}};
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

void app_checks(const SymbolsFacts& facts, std::vector<Check>& checks) {
    const AppAudit& app = *facts.app;
    const Provenance from{"file", *facts.application};
    Check resolves{Finding::app_resolves, Status::pass, "", "", {from}};
    std::vector<std::string> missing = app.missing;
    missing.insert(missing.end(), app.missing_versions.begin(), app.missing_versions.end());
    if (!missing.empty()) {
        resolves.status = Status::fail;
        resolves.message = std::to_string(missing.size()) + " needed by " + *facts.application +
                           " not provided by " + library_label(facts) + ": " + some(missing);
        resolves.remediation =
            "build against the installed headers, or install the DOCA release the application "
            "was built for";
    } else {
        resolves.message = std::to_string(app.dependencies.size()) +
                           " doca_* dependencies checked; none would fail to resolve";
    }
    Check experimental{Finding::app_experimental, Status::pass, "", "", {from}};
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
    // A member that could not be read may need anything: what was read cannot pass for the
    // whole archive. A failure found in the readable members stands.
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
            check->remediation =
                "rebuild the archive from intact objects (ar t and readelf -h show the broken "
                "member), then rerun";
        }
    }
    checks.push_back(std::move(resolves));
    checks.push_back(std::move(experimental));
}

}  // namespace

std::vector<Check> symbols_checks(const SymbolsFacts& facts) {
    std::vector<Check> checks{exported_check(facts), stability_check(facts),
                              agreement_check(facts)};
    if (facts.loader) checks.push_back(loader_check(facts));
    checks.push_back(runtime_check(facts));
    if (facts.app) app_checks(facts, checks);
    return checks;
}

}  // namespace rdmi
