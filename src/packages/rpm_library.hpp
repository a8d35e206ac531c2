// The librpm side of the rpm records: what the probe calls in this machine's librpm (declared
// here from rpm's public headers, no librpm-dev in the build) and the task its contained child
// runs against a private copy of the probed system's database (docs/reference/rpm-database.md).
#pragma once

#include <string>
#include <string_view>

namespace rdmi {

/// One question to the database reader; it crosses to the child as plain text.
struct RpmQuestion {
    std::string library;   ///< host path of librpm to load (passed the library trust gate)
    std::string database;  ///< host directory holding the private copy of rpmdb.sqlite
    /// "open" (answers "packages N"), "owner" (of the absolute path `subject`), "directory"
    /// (the package listing most files directly in the directory `subject`).
    std::string operation;
    std::string subject;
};

/// The request text for `question`.
std::string rpm_request(const RpmQuestion& question);

/// The child's task (an IsolatedWorker task): loads librpm (once per child), opens the
/// database copy read-only with `_dbpath` set to it, and answers the question. An owner is
/// "name\tversion\tarch\tpath\tdigest_algorithm\tdigest", a directory's main owner
/// "name\tversion\tarch\tfiles"; "" when no installed package lists it. Throws what librpm
/// said when it refuses the database.
std::string rpm_database_task(std::string_view request);

}  // namespace rdmi
