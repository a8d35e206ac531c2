// PackageRecords from an rpm database (rpm 4.16 and later: var/lib/rpm/rpmdb.sqlite). librpm
// opens a database by path and makes -wal and -shm files beside it even to read, so the probed
// system's database is never opened: its file is read through the probe's Fs (rooted, vetted,
// size-capped), copied into the run's private directory, and the copy is opened by this
// machine's librpm in a contained child (docs/reference/rpm-database.md).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "core/result.hpp"
#include "os/fs.hpp"
#include "os/live_answers.hpp"
#include "os/private_dir.hpp"
#include "packages/package_records.hpp"

namespace spdlog {
class logger;
}

namespace rdmi {

/// Where the rpm database may be under a root, in the order looked at (Fedora 36 and later
/// keep it in /usr/lib/sysimage/rpm, with /var/lib/rpm a link to it).
inline constexpr const char* kRpmDatabasePaths[] = {"/var/lib/rpm/rpmdb.sqlite",
                                                    "/usr/lib/sysimage/rpm/rpmdb.sqlite"};

/// The most of an rpm database (and of its -wal file) that is read and copied.
inline constexpr std::uint64_t kMaxRpmDatabaseBytes = std::uint64_t{256} << 20U;

/// What reading the rpm records takes from the run.
struct RpmRecordsSource {
    const Fs& fs;                ///< the probed root
    const LiveAnswers& answers;  ///< asked live, recorded by gather, or replayed from a bundle
    Deadline deadline;           ///< the run's
    std::chrono::milliseconds call_timeout;  ///< bound on one question to librpm
    RunPrivateDir& private_dir;              ///< where the database is copied
    /// The run's library trust gate for a host file: the path to load, or why not.
    std::function<Result<std::string>(const std::string& host_path)> trusted_library;
    /// Host paths of this machine's librpm, tried in order.
    std::vector<std::string> library_paths = default_librpm_paths();
    spdlog::logger* log = nullptr;  ///< where a question that fails after the open is told

    /// librpm.so.10 (rpm 4.19 and later) and .so.9 (4.16 to 4.18) in this machine's library
    /// directories.
    static std::vector<std::string> default_librpm_paths();
};

/// The rpm records of the root. A Gap when there are none to read: not_applicable with no rpm
/// database (or one in the Berkeley DB or ndb format, which is named); malformed when librpm
/// refuses it (truncated, not a database: its reason); not_installed when this machine has no
/// librpm; untrusted when librpm fails the trust gate; malformed past kMaxRpmDatabaseBytes.
/// In a replayed bundle nothing is copied or loaded: the captured answers are read.
Result<std::unique_ptr<PackageRecords>> open_rpm_records(const RpmRecordsSource& source);

}  // namespace rdmi
