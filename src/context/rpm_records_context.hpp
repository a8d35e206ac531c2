// The rpm records of the probed root, read with the run's seams: its Fs, its answers (recorded
// by gather, replayed from a bundle), its private directory and its library trust gate.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "context/context.hpp"
#include "core/result.hpp"
#include "packages/rpm_records.hpp"

namespace rdmi {

/// open_rpm_records() over `ctx`: what a fix that needs a file's owner, or an integrity check,
/// asks first on a root with an rpm database. Logs (info) which database was read, or why none.
Result<std::unique_ptr<PackageRecords>> open_rpm_records(const ProbeContext& ctx);

/// Logs (info), for each in-root path of `missing` that an rpm package lists, the package and
/// the command that reinstalls it; nothing when the root has no rpm database. The step the
/// fixes take once they name packages (docs/reference/rpm-database.md).
void log_rpm_owners_of_missing(const ProbeContext& ctx, const std::vector<std::string>& missing);

}  // namespace rdmi
