// PackageRecords over a dpkg database (var/lib/dpkg under the probed root): the status file,
// each installed package's file list (info/<name>.list, or info/<name>:<arch>.list for a
// Multi-Arch: same package), its md5sums (read only when a digest is asked for) and the
// diversions, all read through the probe's Fs.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "os/fs.hpp"
#include "packages/package_records.hpp"

namespace rdmi {

/// Caps on what opening a dpkg database reads. A plain Debian host has a ~1 MB status file,
/// ~1,000 packages and ~3,500 info files whose largest .list is a few MB; each cap leaves at
/// least tenfold headroom, and a cap hit is a gap (the database is not used), never a crash.
struct DpkgLimits {
    std::size_t max_status_bytes = 64U << 20U;       ///< var/lib/dpkg/status
    std::size_t max_list_bytes = 32U << 20U;         ///< one .list or .md5sums file
    std::size_t max_total_list_bytes = 512U << 20U;  ///< every .list together
    std::size_t max_info_entries = 200'000;          ///< entries of var/lib/dpkg/info
    std::size_t max_diversions_bytes = 4U << 20U;    ///< var/lib/dpkg/diversions
    /// Paths listed by every .list together (~150,000 on a plain host). Each is held in memory
    /// (about 130 bytes with its index entry): the byte cap alone would let 512 MiB of short
    /// lines become gigabytes.
    std::size_t max_listed_paths = 2'000'000;
};

/// The dpkg database directory, in-root.
inline constexpr std::string_view kDpkgAdminDir = "/var/lib/dpkg";

/// Opens the dpkg database under `fs`'s root. A Gap: not_found when there is no status file
/// (no dpkg database here); malformed, permission_denied, untrusted (a link the file layer
/// refuses) or timeout when the status file, the info directory or the diversions cannot be
/// used, or a cap is hit. A single unreadable .list (missing, a link the file layer refuses,
/// over the cap) makes that one package list nothing, not the whole database unusable.
Result<std::shared_ptr<const PackageRecords>> open_dpkg_records(const Fs& fs,
                                                                const Deadline& deadline,
                                                                const DpkgLimits& limits = {});

}  // namespace rdmi
