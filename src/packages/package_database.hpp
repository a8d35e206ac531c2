// The probed system's package database, opened at most once per run and only when something
// asks (a fix that needs a file's owner, the integrity check): a plain host's dpkg database is
// a thousand files, never worth reading for a healthy report.
#pragma once

#include <functional>
#include <memory>
#include <mutex>

#include "core/deadline.hpp"
#include "os/fs.hpp"
#include "packages/package_records.hpp"

namespace rdmi {

/// A lazily opened PackageRecords, shared by every copy of a run's context.
class PackageDatabase {
  public:
    /// Opens another manager's records when the root has no dpkg database: a Gap,
    /// not_applicable, when it has none of that manager's either.
    using OtherManager = std::function<Result<std::unique_ptr<PackageRecords>>()>;

    /// The records of the database under `fs`'s root, opened by the first call (later calls
    /// return the same answer, whatever their arguments): dpkg's when the root has a dpkg
    /// status file, else `other`'s (rpm) when given and the root has its database. A Gap,
    /// not_found, when the root has no package database at all; any other reason when one
    /// exists but cannot be used.
    [[nodiscard]] const Result<std::shared_ptr<const PackageRecords>>& open(
        const Fs& fs, const Deadline& deadline, const OtherManager& other = {}) const;
    /// True once open() has been called (for tests that prove nothing was read).
    [[nodiscard]] bool opened() const;

  private:
    mutable std::mutex mutex_;
    mutable std::unique_ptr<Result<std::shared_ptr<const PackageRecords>>> records_;
};

}  // namespace rdmi
