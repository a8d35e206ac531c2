// TrustCache: what the trust checks learnt about the host's files during one run (lstat,
// stat and realpath answers), so that each directory above many libraries is examined once.
#pragma once

#include <sys/stat.h>

#include <map>
#include <mutex>
#include <string>

#include "loader/real_paths.hpp"

namespace rdmi {

/// The answers of lstat(2), stat(2) and realpath(3) by path, for one run. Only facts are kept,
/// never a verdict: every check still applies the whole rule to them, with the uid of the
/// moment, so a directory trusted as the parent of a library is judged again, strictly, as a
/// search directory. A run's checks see one snapshot of the files (a check and the load it
/// allows are never atomic anyway: see docs). Thread-safe.
class TrustCache {
  public:
    /// One answer: `err` is 0 on success, else the errno.
    struct Stat {
        int err = 0;
        struct stat st {};
    };
    struct Real {
        int err = 0;
        std::string path;
    };

    /// lstat(path), asked once.
    Stat lstat(const std::string& path);
    /// stat(path) (following links), asked once.
    Stat stat(const std::string& path);
    /// realpath(path), asked once; resolved by RealPaths, which walks each directory once.
    Real realpath(const std::string& path);

  private:
    std::mutex mutex_;
    std::map<std::string, Stat, std::less<>> lstats_;
    std::map<std::string, Stat, std::less<>> stats_;
    std::map<std::string, Real, std::less<>> reals_;
    RealPaths real_paths_;
};

}  // namespace rdmi
