// The one rule for "consistent": one combined state over both four-way matches, and the
// waivers that leave a source out of them for one run.
#include "probes/install/version_consistency.hpp"

#include <algorithm>
#include <vector>

#include "probes/install/install_parts.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

// Probed text quoted in a message: bounded, so a 60,000-digit "version" stays one short line.
std::string quoted(const std::string& text) {
    constexpr std::size_t kShown = 40;
    if (text.size() <= kShown) return "'" + text + "'";
    return "'" + text.substr(0, kShown) + "...' (" + std::to_string(text.size()) + " bytes)";
}

// The command that leaves `src` out of the match for one run; "" for a source no waiver names.
std::string waiver_command(const VersionSource& src) {
    for (const auto& entry : kWaivableSources) {
        if (entry.source == src.name) {
            return "rdmi-probe check --require-consistent --waive-source " +
                   std::string(entry.name);
        }
    }
    return "";
}

// What to put back for an absent source: the file or tool where it was looked for.
std::string missing_thing(const VersionSource& src) {
    if (src.name == "runtime") return "libdoca_common";
    if (src.name == "bfb") return "/etc/mlnx-release (the BFB's release file)";
    std::string ref = src.raw.source.ref;
    if (ref.ends_with(" --version")) ref.resize(ref.size() - 10);
    return ref.empty() ? src.name : ref;
}

std::string restore_fix(const VersionSource& src, const std::string& release) {
    std::string step = "restore " + missing_thing(src) + " from DOCA " + release;
    if (auto waive = waiver_command(src); !waive.empty())
        step += ", or leave it out of the match: " + waive;
    return step;
}

}  // namespace

std::string_view to_string(SourceState state) {
    switch (state) {
        case SourceState::present:
            return "present";
        case SourceState::absent:
            return "absent";
        case SourceState::unreadable:
            return "unreadable";
        case SourceState::unparseable:
            return "unparseable";
        case SourceState::not_applicable:
            return "not_applicable";
    }
    return "unreadable";
}

std::string_view to_string(MatchState state) {
    switch (state) {
        case MatchState::agree:
            return "agree";
        case MatchState::disagree:
            return "disagree";
        case MatchState::incomplete:
            return "incomplete";
        case MatchState::too_few:
            return "too_few";
    }
    return "incomplete";
}

SourceState source_state(const VersionSource& src) {
    if (src.version) return SourceState::present;
    if (src.raw.value) return SourceState::unparseable;
    if (!src.raw.gap) return SourceState::absent;
    switch (src.raw.gap->reason) {
        case GapReason::not_found:
        case GapReason::not_installed:
            return SourceState::absent;
        case GapReason::not_applicable:
            return SourceState::not_applicable;
        default:
            return SourceState::unreadable;
    }
}

MatchState match_state(const VersionMatch& match) {
    if (!match.disagreeing.empty()) return MatchState::disagree;
    std::size_t present = 0;
    std::size_t missing = 0;
    for (const auto& src : match.sources) {
        switch (source_state(src)) {
            case SourceState::present:
                ++present;
                break;
            case SourceState::not_applicable:
                break;
            default:
                ++missing;
        }
    }
    if (missing > 0) return MatchState::incomplete;
    return present >= 2 ? MatchState::agree : MatchState::too_few;
}

Status match_status(MatchState state) {
    switch (state) {
        case MatchState::agree:
            return Status::pass;
        case MatchState::disagree:
            return Status::fail;
        default:
            return Status::skip;
    }
}

std::string describe_source(const VersionSource& src) {
    const std::string why = src.raw.gap ? " (" + src.raw.gap->message + ")" : "";
    switch (source_state(src)) {
        case SourceState::present:
            return src.version->to_string();
        case SourceState::absent:
            return "absent";
        case SourceState::unreadable:
            return "unreadable" + why;
        case SourceState::unparseable:
            return "unparseable (" + quoted(*src.raw.value) + " is not a DOCA version)";
        case SourceState::not_applicable:
            return "not applicable" + why;
    }
    return "unreadable";
}

std::string describe_match(const VersionMatch& match) {
    const std::string agreed = match.agreed ? match.agreed->to_string() : "?";
    std::vector<std::string> odd;
    std::vector<std::string> present;
    for (const auto& src : match.sources) {
        const SourceState state = source_state(src);
        const bool disagrees = std::find(match.disagreeing.begin(), match.disagreeing.end(),
                                         src.name) != match.disagreeing.end();
        if (state == SourceState::present && !disagrees) present.push_back(src.name);
        if (disagrees || (state != SourceState::present && state != SourceState::not_applicable))
            odd.push_back(src.name + " is " + describe_source(src));
    }
    switch (match_state(match)) {
        case MatchState::agree:
            return "all at " + agreed + " (" + join(present, ", ") + ")";
        case MatchState::disagree:
            return join(odd, ", ") + " while the rest say " + agreed;
        case MatchState::incomplete:
            return join(odd, "; ") + (present.empty() ? ""
                                                      : "; the rest say " + agreed + " (" +
                                                            join(present, ", ") + ")");
        case MatchState::too_few:
            return present.empty() ? "no source applies here"
                                   : "only " + join(present, ", ") + " (" + agreed +
                                         ") applies here, nothing to compare it with";
    }
    return "";
}

std::string unreadable_fix(const std::string& name, const std::optional<Gap>& gap) {
    if (gap && gap->reason == GapReason::permission_denied)
        return "rerun as a user who can read " + name + " (or as root)";
    if (gap && gap->reason == GapReason::timeout) return "rerun with a larger --timeout";
    // A .pc that exists but does not parse (a NUL byte, a cycle, no Version) is damaged, not
    // unreadable: the package that ships it is the fix, as the module check says.
    if (name.ends_with(".pc")) return "repair or reinstall the package that ships " + name;
    return "make " + name + " readable (see its gap)";
}

std::string match_fix(const VersionMatch& match, bool rdmi_stack) {
    const std::string agreed = match.agreed ? match.agreed->to_string() : "one release";
    std::vector<std::string> modules;
    std::vector<std::string> others;
    for (const auto* list : {&match.disagreeing, &match.absent, &match.unparseable}) {
        for (const auto& name : *list) {
            if (name.ends_with(".pc")) {
                modules.push_back(name.substr(0, name.size() - 3));
            } else if (list != &match.absent) {
                others.push_back(name);
            }
        }
    }
    std::vector<std::string> steps;
    if (!modules.empty()) {
        steps.push_back("install " + join(modules, ", ") + " from DOCA " + agreed +
                        (rdmi_stack ? " (the four modules must come from one release)" : ""));
    }
    for (const auto& name : match.unreadable) {
        const auto it = std::find_if(match.sources.begin(), match.sources.end(),
                                     [&](const VersionSource& s) { return s.name == name; });
        steps.push_back(
            unreadable_fix(name, it == match.sources.end() ? std::nullopt : it->raw.gap));
    }
    // A source that is not there cannot "agree": it is restored, or left out of the match.
    for (const auto& name : match.absent) {
        if (name.ends_with(".pc")) continue;
        const auto it = std::find_if(match.sources.begin(), match.sources.end(),
                                     [&](const VersionSource& s) { return s.name == name; });
        if (it != match.sources.end()) steps.push_back(restore_fix(*it, agreed));
    }
    if (!others.empty()) {
        if (rdmi_stack) {
            steps.push_back("reinstall DOCA " + agreed + " so that " + join(others, ", ") +
                            " reports it");
        } else {
            steps.push_back("reinstall DOCA " + agreed +
                            " (and the BFB of the same release on a "
                            "BlueField) so that " +
                            join(others, ", ") + " agrees");
        }
    }
    return join(steps, "; ");
}

std::string_view to_string(ConsistencyState state) {
    switch (state) {
        case ConsistencyState::agree:
            return "agree";
        case ConsistencyState::disagree:
            return "disagree";
        case ConsistencyState::incomplete:
            return "incomplete";
    }
    return "incomplete";
}

ConsistencyState combined_state(MatchState stack, MatchState contract) {
    if (stack == MatchState::disagree || contract == MatchState::disagree)
        return ConsistencyState::disagree;
    if (stack == MatchState::agree && contract == MatchState::agree) return ConsistencyState::agree;
    return ConsistencyState::incomplete;
}

Consistency judge_consistency(const InstallFacts& install) {
    Consistency out;
    out.stack = match_state(install.stack_versions);
    out.contract = match_state(install.contract_versions);
    out.state = combined_state(out.stack, out.contract);
    out.consistent = out.state == ConsistencyState::agree;
    if (out.consistent) {
        out.reason = "both four-way matches hold: the RDMI stack " +
                     describe_match(install.stack_versions) + "; the DOCA version sources " +
                     describe_match(install.contract_versions);
        return out;
    }
    std::vector<std::string> why;
    if (out.stack != MatchState::agree)
        why.push_back("RDMI stack " + std::string(to_string(out.stack)) + ": " +
                      describe_match(install.stack_versions));
    if (out.contract != MatchState::agree)
        why.push_back("DOCA version sources " + std::string(to_string(out.contract)) + ": " +
                      describe_match(install.contract_versions));
    out.reason = join(why, "; ");
    return out;
}

const WaivableSource* find_waivable(std::string_view name) {
    for (const auto& entry : kWaivableSources) {
        if (entry.name == name) return &entry;
    }
    return nullptr;
}

std::string waivable_names() {
    std::vector<std::string> names;
    names.reserve(std::size(kWaivableSources));
    for (const auto& entry : kWaivableSources) names.emplace_back(entry.name);
    return join(names, ", ");
}

InstallFacts waive_sources(const InstallFacts& install, const std::vector<std::string>& names) {
    InstallFacts out = install;
    if (names.empty()) return out;
    for (VersionMatch* match : {&out.stack_versions, &out.contract_versions}) {
        std::vector<VersionSource> sources = match->sources;
        for (auto& src : sources) {
            for (const auto& name : names) {
                const WaivableSource* entry = find_waivable(name);
                if (entry == nullptr || entry->source != src.name) continue;
                // Not applicable is what the match already leaves out (the BFB on a host).
                src.raw = Sourced<std::string>::missing(
                    {GapReason::not_applicable, "waived by --waive-source " + name},
                    src.raw.source);
                src.version.reset();
            }
        }
        *match = install::match_versions(std::move(sources));
    }
    return out;
}

}  // namespace rdmi
