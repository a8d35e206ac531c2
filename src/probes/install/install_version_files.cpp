// doca-version-files: DOCA installs one VERSION file twice, at <prefix>/VERSION (what the
// samples' and applications' build reads) and at applications/VERSION (the contract's source);
// files from two releases mean an upgrade left one behind
// (docs/reference/install-layout.md#version-sources).
#include <algorithm>

#include "probes/install/install_findings.hpp"
#include "probes/install/install_parts.hpp"
#include "probes/install/version_consistency.hpp"

namespace rdmi::install {
namespace {

const VersionSource* applications_version(const InstallFacts& facts) {
    const auto& sources = facts.contract_versions.sources;
    const auto it = std::find_if(sources.begin(), sources.end(), [](const VersionSource& s) {
        return s.name == "applications/VERSION";
    });
    return it == sources.end() ? nullptr : &*it;
}

}  // namespace

Check version_files_check(const InstallFacts& facts) {
    const VersionSource& top = facts.version_file;
    const VersionSource* apps = applications_version(facts);
    const std::string top_path = top.raw.source.ref;
    Check check{finding::doca_version_files, Status::info, "", "", {top.raw.source}};
    if (apps != nullptr) check.sources.push_back(apps->raw.source);
    const SourceState top_state = source_state(top);
    const std::string agreed = facts.contract_versions.agreed
                                   ? facts.contract_versions.agreed->to_string()
                                   : std::string("one release");
    if (top_state == SourceState::absent) {
        check.message = top_path +
                        " is not installed, so applications/VERSION has nothing to "
                        "be compared with (older and runtime-only installs have none)";
        return check;
    }
    if (top_state == SourceState::unreadable) {
        check.message = top_path + " is " + describe_source(top);
        check.remediation = unreadable_fix(top_path, top.raw.gap);
        return check;
    }
    if (top_state == SourceState::unparseable) {
        check.status = Status::warn;
        check.message = top_path + " is " + describe_source(top) +
                        "; a sample build takes it as DOCA's version";
        check.remediation = "reinstall DOCA " + agreed + " so that " + top_path + " is rewritten";
        return check;
    }
    if (apps == nullptr || source_state(*apps) != SourceState::present) {
        check.message = top_path + " is " + top.version->to_string() +
                        "; applications/VERSION is " +
                        (apps == nullptr ? std::string("not looked for") : describe_source(*apps)) +
                        ", nothing to compare it with";
        return check;
    }
    if (same_doca_version(*top.version, *apps->version)) {
        check.status = Status::pass;
        check.message = top_path + " (" + top.version->to_string() + ") and " +
                        apps->raw.source.ref + " (" + apps->version->to_string() +
                        ") name the same release";
        return check;
    }
    // Two releases: the file that differs from the contract's majority (doca-common.pc with
    // applications/VERSION and the rest) is the one another release left.
    const bool top_is_odd = !facts.contract_versions.agreed ||
                            !same_doca_version(*top.version, *facts.contract_versions.agreed);
    const std::string& odd = top_is_odd ? top_path : apps->raw.source.ref;
    check.status = Status::warn;
    check.message = top_path + " says " + top.version->to_string() + " while " +
                    apps->raw.source.ref + " says " + apps->version->to_string() +
                    ": files from two DOCA releases (a sample build takes " + top_path +
                    " as DOCA's version)";
    check.remediation = "reinstall DOCA " + agreed + " so that " + odd + " is rewritten";
    return check;
}

}  // namespace rdmi::install
