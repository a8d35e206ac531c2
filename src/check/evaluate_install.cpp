// The install requirements: the RDMI stack's matched version, modules, the four-way matches.
#include <algorithm>
#include <string>

#include "check/evaluate.hpp"
#include "check/gate_findings.hpp"
#include "pkgconfig/version.hpp"
#include "probes/install/install_findings.hpp"
#include "probes/install/version_consistency.hpp"
#include "text/text.hpp"

namespace rdmi::gate {
namespace {

bool is_pc(const VersionSource& src) {
    return src.name.size() > 3 && src.name.ends_with(".pc");
}

std::string raw_of(const VersionSource& src) {
    return src.raw.value.value_or(src.version ? src.version->to_string() : "?");
}

constexpr const char* kInstallFix =
    "install DOCA (or point --doca-prefix / PKG_CONFIG_PATH at it), then rerun";

// What to do about a stack that cannot be read: depends on why.
std::string fix_for(const std::optional<Gap>& gap) {
    if (gap && gap->reason == GapReason::permission_denied)
        return "rerun as a user who can read DOCA's pkg-config files";
    if (gap && gap->reason == GapReason::timeout) return "rerun with a larger --timeout";
    return kInstallFix;
}

// Why the stack cannot be judged at all (nothing installed, unreadable, or a version that is not
// a DOCA version): nullopt when it can. Source states are version_consistency's.
std::optional<std::string> unevaluable(const InstallFacts& install, std::optional<Gap>& gap) {
    bool any = false;
    for (const auto& src : install.stack_versions.sources) {
        if (!is_pc(src)) continue;
        switch (source_state(src)) {
            case SourceState::present:
                any = true;
                break;
            case SourceState::unreadable:
                gap = src.raw.gap;
                return src.name + ": " + describe_source(src);
            case SourceState::unparseable:
                gap = Gap{GapReason::malformed, ""};
                return src.name + ": " + describe_source(src) + ", so it cannot be compared";
            default:
                break;
        }
    }
    if (any) return std::nullopt;
    if (install.prefix.gap) return "no DOCA install: " + install.prefix.gap->message;
    return "no DOCA install: none of doca-common, doca-verbs, doca-dpa, doca-rdmi is installed "
           "under " +
           install.prefix.value.value_or("the pkg-config search path");
}

// The stack's one version, or the failing check explaining why there is none.
std::optional<DocaVersion> stack_version(const InstallFacts& install, Check& check) {
    std::optional<Gap> gap;
    if (auto why = unevaluable(install, gap)) {
        check.status = Status::skip;
        check.message = *why;
        check.remediation = gap && gap->reason == GapReason::malformed
                                ? "reinstall the module from a DOCA release: its .pc Version is "
                                  "not a DOCA version"
                                : fix_for(gap);
        return std::nullopt;
    }
    const auto& match = install.stack_versions;
    const std::string agreed = match.agreed ? match.agreed->to_string() : "?";
    if (!match.disagreeing.empty()) {
        std::vector<std::string> odd;
        for (const auto& src : match.sources) {
            if (std::find(match.disagreeing.begin(), match.disagreeing.end(), src.name) !=
                match.disagreeing.end())
                odd.push_back(src.name + " is " + raw_of(src));
        }
        check.status = Status::fail;
        check.message = "the RDMI stack is mismatched: " + join(odd) + " while the rest is " +
                        agreed + "; there is no single version to compare";
        std::vector<std::string> modules;
        for (const auto& name : match.disagreeing)
            modules.push_back(name.ends_with(".pc") ? name.substr(0, name.size() - 3) : name);
        check.remediation = "install " + join(modules) + " from DOCA " + agreed +
                            " (the four modules must come from one release)";
        return std::nullopt;
    }
    std::vector<std::string> missing;
    for (const auto& src : match.sources) {
        if (is_pc(src) && !src.version) missing.push_back(src.name);
    }
    if (!missing.empty()) {
        check.status = Status::fail;
        check.message = "the RDMI stack is incomplete: " + join(missing) +
                        " missing (the rest is " + agreed + ")";
        check.remediation = "install the missing modules from DOCA " + agreed;
        return std::nullopt;
    }
    return match.agreed;
}

// Orders `have` against `want`; a `want` without a build compares releases only.
int compare_gate(DocaVersion have, const DocaVersion& want) {
    if (!want.build) have.build.reset();
    return compare_doca_versions(have, want);
}

Check version_check(const InstallFacts& install, const FindingInfo& id, const std::string& op,
                    const std::string& wanted) {
    Check check{id, Status::pass, "", "", {{"pkg-config", install.pc_dir}}};
    auto have = stack_version(install, check);
    if (!have) {
        check.message += " (required " + op + " " + wanted + ")";
        return check;
    }
    auto want = parse_gate_version(wanted);
    if (!want) {
        check.status = Status::fail;
        check.message = want.gap().message;
        return check;
    }
    const int order = compare_gate(*have, *want);
    const bool ok = op == ">=" ? order >= 0 : op == "<=" ? order <= 0 : order == 0;
    const std::string stated = "the RDMI stack is " + have->to_string();
    if (ok) {
        check.message = stated + ", which satisfies " + op + " " + wanted;
        return check;
    }
    check.status = Status::fail;
    check.message = stated + ", which does not satisfy " + op + " " + wanted;
    check.remediation = op == "<="   ? "install DOCA " + wanted + " or older"
                        : op == ">=" ? "upgrade DOCA to " + wanted + " or newer"
                                     : "install DOCA " + wanted;
    return check;
}

const ModuleFacts* find_module(const InstallFacts& install, const std::string& name) {
    for (const auto* list : {&install.stack, &install.doca_modules}) {
        for (const auto& m : *list) {
            if (m.name == name && m.found) return &m;
        }
    }
    for (const auto& m : install.stack) {
        if (m.name == name) return &m;
    }
    return nullptr;
}

Check module_check(const InstallFacts& install, const ModuleRequirement& req) {
    const std::string spelled = req.name + (req.op.empty() ? "" : " " + req.op + " " + req.version);
    Check check{
        FindingId(finding::module, req.name), Status::pass, "", "", {{"pkg-config", req.name}}};
    const ModuleFacts* module = find_module(install, req.name);
    if (module == nullptr || !module->found) {
        if (module != nullptr && module->gap && module->gap->reason != GapReason::not_found &&
            module->gap->reason != GapReason::malformed) {
            check.status = Status::skip;
            check.message = spelled + ": cannot be checked: " + module->gap->message;
            check.remediation = fix_for(module->gap);
            return check;
        }
        std::optional<Gap> unused;
        if (auto why = unevaluable(install, unused); why && install.doca_modules.empty()) {
            check.status = Status::skip;
            check.message = spelled + ": cannot be checked: " + *why;
            check.remediation = kInstallFix;
            return check;
        }
        check.status = Status::fail;
        check.message = spelled + " required; " + req.name + " is not installed";
        check.remediation = "install the " + req.name + " package of your DOCA release";
        return check;
    }
    check.sources = {{"pkg-config", module->pc_path}};
    if (!req.op.empty() && !parse_doca_version(module->version)) {
        // The same text --min-version refuses to compare: both say so, neither guesses.
        VersionSource src{
            module->name + ".pc",
            Sourced<std::string>::of(module->version, {"pkg-config", module->pc_path}),
            std::nullopt};
        check.status = Status::skip;
        check.message = spelled + " required; " + src.name + " is " + describe_source(src) +
                        ", so it cannot be compared";
        check.remediation =
            "reinstall the module from a DOCA release: its .pc Version is not a DOCA version";
        return check;
    }
    if (req.op.empty() || pkgconfig::satisfies(module->version, req.op, req.version)) {
        check.message = spelled + " required; found " + req.name + " " + module->version;
        return check;
    }
    check.status = Status::fail;
    check.message = spelled + " required; found " + req.name + " " + module->version;
    check.remediation =
        "install a DOCA release whose " + req.name + " satisfies " + req.op + " " + req.version;
    return check;
}

std::string match_summary(const VersionMatch& match, const std::string& label) {
    std::string out = label + " at " + (match.agreed ? match.agreed->to_string() : "?");
    std::vector<std::string> present;
    for (const auto& src : match.sources) {
        if (src.version) present.push_back(src.name);
    }
    out += " (" + join(present) + ")";
    return out;
}

// The sources a waiver left out, as the messages name them: "doca_caps (doca_caps --version)".
std::string waived_text(const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const auto& name : names) {
        const WaivableSource* entry = find_waivable(name);
        out.push_back(entry == nullptr ? name : name + " (" + std::string(entry->source) + ")");
    }
    return out.empty() ? "" : "; waived: " + join(out);
}

Check consistent_check(const InstallFacts& probed, const std::vector<std::string>& waived) {
    Check check{
        finding::consistent_versions, Status::pass, "", "", {{"pkg-config", probed.pc_dir}}};
    // judge_consistency() is the one definition env's version.consistent and the report's
    // version checks use too, and its combined state decides: agree passes, disagree fails,
    // incomplete skips. A disagreement is decided before asking why the stack has no single
    // version: with doca-verbs.pc at 3.3.105 and doca-rdmi.pc unparseable the report failed
    // while this skipped (exit 3, which a gate may let through).
    const InstallFacts install = waive_sources(probed, waived);
    const Consistency verdict = judge_consistency(install);
    const std::string waiver = waived_text(waived);
    switch (verdict.state) {
        case ConsistencyState::agree:
            check.message =
                "consistent: " + match_summary(install.stack_versions, "RDMI stack") + "; " +
                match_summary(install.contract_versions, "DOCA version sources") + waiver;
            return check;
        case ConsistencyState::disagree:
            check.status = Status::fail;
            check.message = "disagree: " + verdict.reason + waiver;
            break;
        case ConsistencyState::incomplete: {
            check.status = Status::skip;
            // No DOCA at all, or a stack that cannot be read: say so, and the fix is DOCA's.
            // Judged on the probed facts: a stack the waivers emptied is installed, and its
            // verdict is the waivers' (below), not "no DOCA install".
            std::optional<Gap> gap;
            std::optional<Gap> probed_gap;
            if (auto why = unevaluable(install, gap); why && unevaluable(probed, probed_gap)) {
                check.message = "incomplete: " + *why + waiver;
                check.remediation = gap && gap->reason == GapReason::malformed
                                        ? "reinstall the module from a DOCA release: its .pc "
                                          "Version is not a DOCA version"
                                        : fix_for(gap);
                return check;
            }
            check.message = "incomplete: " + verdict.reason + waiver;
            break;
        }
    }
    // A match the waivers left with fewer than two sources was not found short on the host:
    // the run left its sources out, and only waiving fewer lets it be judged.
    const Consistency unwaived = judge_consistency(probed);
    auto waived_short = [](MatchState now, MatchState before) {
        return now == MatchState::too_few && before != MatchState::too_few;
    };
    const bool stack_waived = waived_short(verdict.stack, unwaived.stack);
    const bool contract_waived = waived_short(verdict.contract, unwaived.contract);
    std::vector<std::string> fixes;
    if (stack_waived || contract_waived) {
        fixes.emplace_back(
            "waive fewer version sources: a match needs two that apply here, and the waivers "
            "leave fewer");
    }
    if (verdict.stack != MatchState::agree && !stack_waived)
        fixes.push_back(match_fix(install.stack_versions, true));
    if (verdict.contract != MatchState::agree && !contract_waived)
        fixes.push_back(match_fix(install.contract_versions, false));
    std::erase(fixes, std::string());
    check.remediation = fixes.empty() ? "run on the live system, where every version source can "
                                        "be read"
                                      : join(fixes);
    return check;
}

}  // namespace

std::vector<Check> install_gate(const Policy& policy, const InstallFacts& install) {
    std::vector<Check> checks;
    if (policy.min_version)
        checks.push_back(version_check(install, finding::min_version, ">=", *policy.min_version));
    if (policy.max_version)
        checks.push_back(version_check(install, finding::max_version, "<=", *policy.max_version));
    if (policy.exact_version) {
        checks.push_back(
            version_check(install, finding::exact_version, "=", *policy.exact_version));
    }
    for (const auto& req : policy.modules) checks.push_back(module_check(install, req));
    if (policy.require_consistent)
        checks.push_back(consistent_check(install, policy.waive_sources));
    return checks;
}

}  // namespace rdmi::gate
