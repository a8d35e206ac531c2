// The install checks: one verdict per question an engineer asks before building RDMI code.
#include <algorithm>

#include "probes/install/install_findings.hpp"
#include "probes/install/install_parts.hpp"
#include "probes/install/version_consistency.hpp"
#include "text/shell_word.hpp"
#include "text/text.hpp"

namespace rdmi::install {
namespace {

Check make(FindingId id, Status status, std::string message, std::string remediation,
           std::vector<Provenance> sources) {
    return Check{std::move(id), status, std::move(message), std::move(remediation),
                 std::move(sources)};
}

// A fix that several checks share for one cause: its words and the fix plan's name for it.
struct SharedFix {
    std::string text;
    Remedy remedy;
};

Check make(FindingId id, Status status, std::string message, const SharedFix& fix,
           std::vector<Provenance> sources) {
    Check check = make(std::move(id), status, std::move(message), fix.text, std::move(sources));
    check.remedy = fix.remedy;
    return check;
}

// One wording for "DOCA is not here at all", so that the fix plan gives the checks this one cause
// fails or skips (prefix, modules, versions, headers, tools) as one step.
const SharedFix kInstallDoca{
    "install the DOCA SDK, or pass --doca-prefix DIR where it is installed", {"install-doca"}};
const SharedFix kRelayoutDoca{
    "reinstall DOCA; expected lib/<triplet>/pkgconfig, lib64/pkgconfig or "
    "infrastructure/lib/pkgconfig",
    {"reinstall-doca-layout"}};

// The fix of "DOCA is not where it should be", worded as the prefix check words it, so that the
// checks this cause skips join the prefix check's step in the fix plan instead of a second one.
const SharedFix& doca_fix(const InstallFacts& facts) {
    return facts.prefix_exists && facts.layout == DocaLayout::none ? kRelayoutDoca : kInstallDoca;
}

Check prefix_check(const InstallFacts& facts) {
    const std::string& prefix = *facts.prefix.value;
    if (!facts.prefix_exists) {
        return make(finding::doca_prefix, Status::fail,
                    "DOCA not found: " + prefix + " does not exist", kInstallDoca,
                    {facts.prefix.source});
    }
    if (facts.layout == DocaLayout::none) {
        return make(finding::doca_prefix, Status::fail,
                    "no DOCA pkg-config directory under " + prefix, kRelayoutDoca,
                    {facts.prefix.source});
    }
    return make(finding::doca_prefix, Status::pass,
                "DOCA at " + prefix + " (" + std::string(to_string(facts.layout)) +
                    " layout, .pc files in " + facts.pc_dir + ")",
                "", {facts.prefix.source});
}

std::vector<Check> module_checks(const InstallFacts& facts) {
    std::vector<Check> checks;
    for (const auto& module : facts.stack) {
        const FindingId id(finding::module, module.name);
        Provenance from{"pkg-config", module.pc_path.empty() ? module.name : module.pc_path};
        if (!module.found) {
            const bool unreadable = module.gap && module.gap->reason != GapReason::not_found;
            const SharedFix fix =
                unreadable ? SharedFix{unreadable_fix(module.name + ".pc", module.gap), {}}
                : !module.package_fix.empty() ? SharedFix{module.package_fix, {}}
                : facts.prefix_exists
                    ? SharedFix{"install the DOCA development package that ships " + module.name +
                                    ".pc",
                                {}}
                    : kInstallDoca;
            checks.push_back(make(id, Status::fail,
                                  unreadable
                                      ? module.gap->message
                                      : module.name + ".pc not found on the pkg-config search path",
                                  fix, {from}));
            continue;
        }
        if (!module.on_search_path) {
            // The directory comes from the probed tree: quoted, so pasting the fix runs nothing
            // a directory name spells. Its step is named without the directory, which differs
            // between hosts and layouts.
            const SharedFix path_fix{"export PKG_CONFIG_PATH=" + shell_word(facts.pc_dir) +
                                         "${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}",
                                     {"pkg-config-path"}};
            checks.push_back(make(id, Status::fail,
                                  module.name + " " + module.version +
                                      " is only in DOCA's pc dir " + facts.pc_dir +
                                      ", not on the pkg-config search path",
                                  path_fix, {from}));
        } else {
            checks.push_back(make(id, Status::pass,
                                  module.name + " " + module.version + " (" + module.pc_path + ")",
                                  "", {from}));
        }
        if (!module.unresolved.empty()) {
            std::vector<std::string> problems;
            for (const auto& req : module.unresolved) {
                problems.push_back(req.name + (req.constraint.empty() ? "" : " " + req.constraint) +
                                   ": " + req.problem);
            }
            checks.push_back(
                make(FindingId(finding::module_requires, module.name), Status::fail,
                     module.name + " requires what does not resolve: " + join(problems, "; "),
                     "install or fix the required modules so that `pkg-config --cflags --libs " +
                         module.name + "` succeeds",
                     {from}));
        }
    }
    return checks;
}

std::string join_nonempty(const std::vector<std::string>& parts) {
    std::vector<std::string> kept;
    for (const auto& part : parts) {
        if (!part.empty()) kept.push_back(part);
    }
    return join(kept, "; ");
}

// Which package each module of another release came from ("doca-dpa.pc is from
// libdoca-sdk-dpa-dev (version 3.2.1025-1)"), as the package database says.
std::string module_owners(const InstallFacts& facts) {
    std::vector<std::string> owners;
    for (const auto& module : facts.stack) {
        if (!module.owner.empty())
            owners.push_back(module.name + ".pc is from package " + module.owner);
    }
    return join(owners, ", ");
}

Check version_check(const FindingInfo& id, const std::string& what, const VersionMatch& match,
                    const SharedFix& no_doca_fix, const std::string& owners = "") {
    // The verdict is match_state()'s, the same rule env's `consistent` and check use.
    std::vector<Provenance> sources;
    std::vector<std::string> listing;
    std::vector<std::string> not_applicable;
    std::size_t present = 0;
    for (const auto& src : match.sources) {
        sources.push_back(src.raw.source);
        const SourceState state = source_state(src);
        if (state == SourceState::present) {
            ++present;
            listing.push_back(src.name + "=" + src.version->to_string());
        } else if (state == SourceState::not_applicable) {
            not_applicable.push_back(src.name);
        } else {
            listing.push_back(src.name + "=" + std::string(to_string(state)));
        }
    }
    const std::string unchecked =
        not_applicable.empty() ? "" : "; not applicable here: " + join(not_applicable);
    const MatchState state = match_state(match);
    const bool rdmi_stack = &id == &finding::rdmi_stack_versions;
    if (state == MatchState::disagree) {
        return make(id, Status::fail, what + " disagree: " + describe_match(match),
                    join_nonempty({match_fix(match, rdmi_stack), owners}), sources);
    }
    // Only "nothing could be read" makes this DOCA's absence: versions that were read are judged
    // as env's `consistent` and check --require-consistent judge them, even when DOCA's prefix
    // or its layout is not where the prefix check looks (that check fails on its own).
    if (present == 0) {
        return make(id, Status::skip,
                    what + ": no version could be read (" + join(listing) + ")" + unchecked,
                    no_doca_fix, sources);
    }
    if (state == MatchState::incomplete) {
        return make(id, Status::skip,
                    what + " cannot be confirmed: " + describe_match(match) + unchecked,
                    match_fix(match, rdmi_stack), sources);
    }
    if (state == MatchState::too_few) {
        return make(id, Status::skip,
                    what + ": only " + join(listing) +
                        " could be read, nothing to compare it with" + unchecked,
                    "", sources);
    }
    return make(
        id, Status::pass,
        what + " agree on " + match.agreed->to_string() + " (" + join(listing) + ")" + unchecked,
        "", sources);
}

Check headers_check(const InstallFacts& facts, bool doca_found) {
    std::vector<std::string> missing;
    std::vector<Provenance> sources;
    for (const auto& header : facts.headers) {
        sources.push_back({"file", header.path});
        if (!header.present) missing.push_back(header.name);
    }
    if (!doca_found) {
        return make(finding::rdmi_headers, Status::skip,
                    "DOCA not found; RDMI headers not looked for", doca_fix(facts), {});
    }
    if (!missing.empty()) {
        // One fix per package: five headers of one package are one reinstall.
        std::vector<std::string> fixes;
        for (const auto& header : facts.headers) {
            if (header.present) continue;
            const std::string fix =
                header.package_fix.empty() ? std::string(kReinstallRdmiDev) : header.package_fix;
            if (std::find(fixes.begin(), fixes.end(), fix) == fixes.end()) fixes.push_back(fix);
        }
        return make(finding::rdmi_headers, Status::fail,
                    "missing in " + facts.include_dir + ": " + join(missing), join(fixes, "; "),
                    sources);
    }
    std::vector<std::string> unread;
    for (const auto& header : facts.headers) {
        if (header.gap) unread.push_back(header.gap->message);
    }
    if (!unread.empty()) {
        return make(finding::rdmi_headers, Status::skip,
                    "present but not vouched for: " + join(unread, "; "),
                    "check the file: a DOCA header is kilobytes; reinstall the DOCA RDMI "
                    "development package",
                    sources);
    }
    return make(
        finding::rdmi_headers, Status::pass,
        "all " + std::to_string(facts.headers.size()) + " RDMI headers in " + facts.include_dir, "",
        sources);
}

std::vector<Check> library_checks(const InstallFacts& facts) {
    std::vector<Check> checks;
    for (const auto& lib : facts.libraries) {
        const FindingId id(finding::library, lib.name);
        if (lib.present && lib.gap) {
            checks.push_back(make(
                id, Status::fail, lib.gap->message,
                lib.package_fix.empty() ? reinstall_runtime_fix(lib.name, true) : lib.package_fix,
                {{"file", lib.path}}));
        } else if (lib.present) {
            checks.push_back(
                make(id, Status::pass,
                     lib.path + (lib.detail.empty() ? "" : " (soname " + lib.detail + ")"), "",
                     {{"file", lib.path}}));
        } else {
            checks.push_back(make(
                id, Status::fail, lib.gap ? lib.gap->message : lib.path + ": missing",
                lib.package_fix.empty() ? reinstall_runtime_fix(lib.name, false) : lib.package_fix,
                {{"file", lib.path}}));
        }
    }
    return checks;
}

Check tool_check(const InstallFacts& facts, const InstalledFile& tool, const FindingInfo& id,
                 const std::string& purpose, bool doca_found, Status when_missing) {
    if (tool.present) {
        std::string message = tool.path;
        if (!tool.detail.empty()) message += " (version " + tool.detail + ")";
        if (tool.gap && tool.gap->reason == GapReason::not_applicable) {
            message += " (version not read under --root)";
        } else if (tool.gap) {
            message += "; version unknown: " + tool.gap->message;
        }
        return make(id, Status::pass, message, "", {{"file", tool.path}});
    }
    if (!doca_found) {
        return make(id, Status::skip, tool.name + " not found; DOCA is not installed",
                    doca_fix(facts), {});
    }
    return make(id, when_missing, tool.name + " not found (" + purpose + ")",
                tool.package_fix.empty() ? install_tool_fix(tool.name) : tool.package_fix,
                {{"file", tool.path}});
}

}  // namespace

std::vector<Check> derive_checks(const InstallFacts& facts) {
    std::vector<Check> checks;
    checks.push_back(prefix_check(facts));
    const bool doca_found = facts.prefix_exists && facts.layout != DocaLayout::none;
    for (auto& check : module_checks(facts)) checks.push_back(std::move(check));
    checks.push_back(version_check(finding::rdmi_stack_versions, "RDMI stack versions",
                                   facts.stack_versions, doca_fix(facts), module_owners(facts)));
    checks.push_back(version_check(finding::contract_versions, "DOCA version sources",
                                   facts.contract_versions, doca_fix(facts)));
    if (doca_found) checks.push_back(version_files_check(facts));
    checks.push_back(headers_check(facts, doca_found));
    for (auto& check : library_checks(facts)) checks.push_back(std::move(check));
    if (facts.samples.present) {
        checks.push_back(make(finding::rdmi_samples, Status::info,
                              "RDMI samples in " + facts.samples.path, "",
                              {{"file", facts.samples.path}}));
    } else {
        checks.push_back(make(finding::rdmi_samples, Status::info,
                              "no RDMI samples at " + facts.samples.path,
                              "samples ship in the DOCA samples package; install it to get them",
                              {{"file", facts.samples.path}}));
    }
    checks.push_back(tool_check(facts, facts.dpacc, finding::dpacc,
                                "the DPA compiler, needed to build DPA kernels", doca_found,
                                Status::fail));
    checks.push_back(tool_check(facts, facts.doca_caps, finding::doca_caps,
                                "one of the contract's version sources", doca_found, Status::info));
    return checks;
}

}  // namespace rdmi::install
