// PackageRecords: what the probed system's package manager recorded about its installed files
// (who owns a file, what a package lists, the digest a file had when it was installed), so that
// a fix can name the package to reinstall and an integrity check can compare digests. Backends
// read the database through the probe's own file layer (rooted, vetted, size-capped) and never
// write anything under the probed root.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/check.hpp"

namespace rdmi {

/// One installed package, as its manager records it.
struct InstalledPackage {
    std::string name;     ///< "doca-sdk-rdmi" (dpkg: without its ":arch" qualifier)
    std::string version;  ///< as recorded ("3.3.0047-1")
    std::string arch;     ///< "amd64", "arm64", "all", "x86_64", "noarch"; empty when unrecorded
    /// "installed"; otherwise the manager's own word for an unfinished install whose files
    /// are partly on disk (dpkg: "half-installed", "unpacked", "half-configured").
    std::string state = "installed";
};

/// A file as a package lists it.
struct FileRecord {
    InstalledPackage package;
    std::string path;  ///< the path as the package lists it ("/lib/x86_64-linux-gnu/…")
    std::string digest_algorithm;  ///< "md5", "sha256", …; empty when no digest is recorded
    std::string digest;            ///< lowercase hex; empty when no digest is recorded
};

/// The records of one package manager's database on the probed system.
class PackageRecords {
  public:
    virtual ~PackageRecords() = default;

    /// "dpkg" or "rpm".
    [[nodiscard]] virtual std::string_view manager() const = 0;
    /// Where the records were read from (for a fix's and a check's sources).
    [[nodiscard]] virtual const Provenance& source() const = 0;
    /// The record of the file at the absolute in-root `path`; a path under /lib, /bin, /sbin
    /// and the same path under /usr are one file on a merged-/usr system. nullopt when no
    /// installed package lists it.
    [[nodiscard]] virtual std::optional<FileRecord> owner_of(std::string_view path) const = 0;
    /// The installed package that lists the most files directly in the directory `dir`;
    /// nullopt when none lists any.
    [[nodiscard]] virtual std::optional<InstalledPackage> main_owner_of_directory(
        std::string_view dir) const = 0;
    /// The command that reinstalls `package` with this manager
    /// ("apt-get install --reinstall doca-sdk-rdmi", "dnf reinstall doca-sdk-rdmi").
    [[nodiscard]] virtual std::string reinstall_command(const InstalledPackage& package) const = 0;
};

}  // namespace rdmi
