// The dpkg status database (var/lib/dpkg/status): one stanza per package, parsed without
// trusting it (binary junk, truncated stanzas and oversized fields become problems, not crashes).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/deadline.hpp"
#include "core/result.hpp"

namespace rdmi {

/// One package stanza as dpkg recorded it.
struct DpkgStatusEntry {
    std::string name;              ///< Package:
    std::string version;           ///< Version: ("" when the stanza has none, e.g. not-installed)
    std::string architecture;      ///< Architecture: ("amd64", "all"; "" when unrecorded)
    std::string want;              ///< the first word of Status: ("install", "hold", "deinstall")
    std::string state;             ///< the third word of Status: ("installed", "half-installed")
    bool multi_arch_same = false;  ///< Multi-Arch: same (its info files are "name:arch.*")
    /// Conffiles: entries, path and md5 ("newconffile" and "obsolete" entries skipped).
    std::vector<std::pair<std::string, std::string>> conffiles;

    /// True when dpkg considers the package installed: state "installed" with flag "ok" (want
    /// "install" or "hold": a held package is installed too).
    [[nodiscard]] bool installed() const;
    /// True when the package's files are (at least partly) on disk: installed, or an
    /// interrupted install dpkg names "half-installed", "unpacked", "half-configured",
    /// "triggers-awaited" or "triggers-pending".
    [[nodiscard]] bool has_files() const;
};

/// What one parse of the status file gave.
struct DpkgStatus {
    std::vector<DpkgStatusEntry> packages;
    /// One line per stanza that was skipped ("stanza 12 (line 340): no Package field").
    std::vector<std::string> problems;
};

/// Caps on what the status parser accepts.
struct DpkgStatusLimits {
    std::size_t max_packages = 100'000;       ///< a plain Debian host has ~1,000
    std::size_t max_field_bytes = 1U << 20U;  ///< one field (Description, Conffiles) at most
    std::size_t max_problems = 20;            ///< problems kept (the count is still right)
};

/// Parses the text of var/lib/dpkg/status read from `path` (for messages), a line at a time
/// (no copy of every line is held). A file that is not text (a NUL byte) or holds more than
/// `limits.max_packages` stanzas is a malformed Gap, and a `deadline` (when given) that passes
/// mid-file a timeout Gap; a stanza without Package or Status, with an unparseable Status, or
/// with a Package, Version or Architecture dpkg would refuse, is skipped and named in
/// `problems`.
Result<DpkgStatus> parse_dpkg_status(std::string_view text, std::string_view path,
                                     const DpkgStatusLimits& limits = {},
                                     const Deadline* deadline = nullptr);

}  // namespace rdmi
