// install-integrity: one digest per judged file (md5 for dpkg, SHA-256 for rpm), compared with
// what its package recorded
// (docs/reference/package-records.md#install-integrity).
#include "probes/install/install_integrity.hpp"

#include <algorithm>

#include "digest/md5.hpp"
#include "digest/sha256.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

/// Bound on one file hashed; DOCA's largest libraries are tens of MiB.
constexpr std::size_t kMaxHashedBytes = 1ULL << 30U;

struct Candidate {
    std::string role;
    std::string path;
};

std::vector<Candidate> judged_files(const ProbeContext& ctx, const InstallFacts& install) {
    std::vector<Candidate> out;
    for (const auto& header : install.headers) {
        if (header.present) out.push_back({"header", header.path});
    }
    for (const auto& lib : install.libraries) {
        if (lib.present) out.push_back({"library", lib.resolved.empty() ? lib.path : lib.resolved});
    }
    for (const auto& module : install.stack) {
        if (!module.found || module.pc_path.empty()) continue;
        // A distro link to the .pc has no digest of its own: hash the file it leads to.
        auto real = ctx.fs.real_path(module.pc_path);
        out.push_back({"pkg-config", real ? *real : module.pc_path});
    }
    for (const InstalledFile* tool : {&install.dpacc, &install.doca_caps}) {
        if (tool->present) out.push_back({"tool", tool->path});
    }
    return out;
}

Check integrity_check(const IntegrityFacts& facts) {
    Check check{finding::install_integrity, Status::pass, "", "", {}};
    if (facts.database) {
        check.status = Status::skip;
        check.message = "no package records to compare with: " + facts.database->message;
        return check;
    }
    std::vector<std::string> differ;
    std::vector<std::string> fixes;
    std::size_t matched = 0;
    std::size_t unrecorded = 0;
    std::vector<std::string> unread;
    for (const auto& file : facts.files) {
        check.sources.push_back({"file", file.path});
        if (file.verdict == "matches") {
            ++matched;
        } else if (file.verdict == "differs") {
            differ.push_back(file.path + " (" + file.role + ", " + file.package + " " +
                             file.version + ")");
            const std::string fix = file.reinstall;
            if (std::find(fixes.begin(), fixes.end(), fix) == fixes.end()) fixes.push_back(fix);
        } else if (file.verdict == "unrecorded") {
            ++unrecorded;
        } else if (file.gap) {
            unread.push_back(file.gap->message);
        }
    }
    const std::string unrecorded_note =
        unrecorded == 0 ? "" : "; " + std::to_string(unrecorded) + " with no recorded digest";
    if (!differ.empty()) {
        check.status = Status::fail;
        check.message = std::to_string(differ.size()) +
                        " file(s) differ from the digest their package recorded: " + join(differ);
        check.remediation =
            "find out who changed it (a local edit, a partial copy, tampering); "
            "the package's copy comes back with: " +
            join(fixes, "; ");
        return check;
    }
    if (!unread.empty()) {
        check.status = Status::skip;
        check.message = std::to_string(unread.size()) +
                        " file(s) not hashed: " + join(unread, "; ") + unrecorded_note;
        return check;
    }
    if (matched == 0) {
        check.status = Status::skip;
        check.message = "none of the " + std::to_string(facts.files.size()) +
                        " judged files has a digest recorded by an installed package";
        return check;
    }
    check.message = std::to_string(matched) + " file(s) match the digest their package recorded" +
                    unrecorded_note;
    return check;
}

}  // namespace

IntegrityFacts probe_install_integrity(const ProbeContext& ctx, const InstallFacts& install) {
    IntegrityFacts facts;
    const auto& opened = ctx.package_records();
    if (!opened) {
        facts.database = opened.gap();
        facts.check = integrity_check(facts);
        return facts;
    }
    const PackageRecords& records = **opened;
    for (const auto& candidate : judged_files(ctx, install)) {
        IntegrityFile file;
        file.role = candidate.role;
        file.path = candidate.path;
        auto owner = records.owner_of(candidate.path);
        if (owner) {
            file.package = owner->package.name;
            file.version = owner->package.version;
            // dpkg records md5, rpm (4.6 and later) usually SHA-256; another algorithm (an old
            // rpm's, or SHA-512) is left unrecorded rather than hashed with a second library.
            if (owner->digest_algorithm == "md5" || owner->digest_algorithm == "sha256") {
                file.algorithm = owner->digest_algorithm;
                file.recorded = owner->digest;
            }
        }
        if (file.recorded.empty()) {
            file.verdict = "unrecorded";
            facts.files.push_back(std::move(file));
            continue;
        }
        if (ctx.deadline.expired()) {
            file.verdict = "unreadable";
            file.gap = Gap{GapReason::timeout, file.path + ": not hashed, the deadline passed"};
            facts.files.push_back(std::move(file));
            continue;
        }
        auto bytes = ctx.fs.map_file(candidate.path, kMaxHashedBytes);
        if (!bytes) {
            file.verdict = "unreadable";
            file.gap = bytes.gap();
        } else if (auto digest = file.algorithm == "md5"
                                     ? md5_hex((*bytes)->bytes(), ctx.deadline)
                                     : sha256_hex((*bytes)->bytes(), ctx.deadline)) {
            file.actual = *digest;
            file.verdict = file.actual == file.recorded ? "matches" : "differs";
            if (file.verdict == "differs")
                file.reinstall = records.reinstall_command(owner->package);
        } else {
            file.verdict = "unreadable";
            file.gap = Gap{GapReason::timeout, file.path + ": the deadline passed while hashing"};
        }
        facts.files.push_back(std::move(file));
    }
    facts.check = integrity_check(facts);
    return facts;
}

json::Json install_integrity_json(const IntegrityFacts& facts) {
    json::Json out = json::Json::object();
    out["database"] = facts.database ? json::Json(facts.database->message) : json::Json(nullptr);
    json::Json files = json::Json::array();
    for (const auto& file : facts.files) {
        json::Json entry = json::Json::object();
        entry["role"] = file.role;
        entry["path"] = file.path;
        entry["package"] = file.package.empty() ? json::Json(nullptr) : json::Json(file.package);
        entry["version"] = file.version.empty() ? json::Json(nullptr) : json::Json(file.version);
        entry["algorithm"] =
            file.algorithm.empty() ? json::Json(nullptr) : json::Json(file.algorithm);
        entry["recorded_digest"] =
            file.recorded.empty() ? json::Json(nullptr) : json::Json(file.recorded);
        entry["digest"] = file.actual.empty() ? json::Json(nullptr) : json::Json(file.actual);
        entry["verdict"] = file.verdict;
        files.push_back(std::move(entry));
    }
    out["files"] = std::move(files);
    return out;
}

}  // namespace rdmi
