// The install-integrity probe (opt-in: report --integrity): the files the install probe judges
// (headers, libraries, .pc files, tools) compared with the digest their package recorded, so that a
// file changed after install (a local edit, a bad copy, tampering) is named. It reports; it never
// repairs anything.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "json/json_common.hpp"
#include "probes/install/install.hpp"

namespace rdmi {

// The probe's catalog entry: the `install-integrity` check.
namespace finding {
inline constexpr FindingInfo install_integrity{
    "install-integrity", "report --integrity (install-integrity probe); check --require-integrity",
    "The DOCA headers, libraries, .pc files and tools the install checks judge have the digest "
    "their package recorded when it was installed.",
    "Find out who changed the file (a local edit, a partial copy, tampering); the package's "
    "copy comes back with the reinstall command the message names.",
    // Libraries and tools are the run's, headers and .pc files the build's: the check judges
    // both kinds of file at once.
    Purposes::both};
}  // namespace finding

/// The probe's entries (its registry row lists them).
inline constexpr const FindingInfo* kInstallIntegrityFindings[] = {&finding::install_integrity};

/// One judged file.
struct IntegrityFile {
    std::string role;  ///< "header", "library", "pkg-config", "tool"
    std::string path;  ///< in-root path hashed (a library's real file)
    std::string package;
    std::string version;
    std::string algorithm;  ///< the recorded digest's: "md5" (dpkg), "sha256" (rpm); "" when none
    std::string recorded;   ///< the digest the package recorded; "" when it records none we hash
    std::string actual;     ///< the file's digest now, by the same algorithm; "" when not hashed
    /// "matches", "differs", "unrecorded" (no package lists it, or no digest), "unreadable"
    std::string verdict;
    std::string reinstall;   ///< the manager's command for the package, when it differs
    std::optional<Gap> gap;  ///< why it was not hashed
};

/// What the integrity probe learned.
struct IntegrityFacts {
    std::vector<IntegrityFile> files;
    std::optional<Gap> database;  ///< why there are no records to compare with
    Check check{finding::install_integrity, Status::skip, "", "", {}};
};

/// Compares the files `install` found with the run's package database; bounded by the run's
/// deadline (checked between files and while hashing).
IntegrityFacts probe_install_integrity(const ProbeContext& ctx, const InstallFacts& install);

/// The report's install_integrity section.
json::Json install_integrity_json(const IntegrityFacts& facts);

}  // namespace rdmi
