// Activity: a cheap record of the file system operation in progress, for the run's watchdog.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rdmi::activity {

/// What is being done to a path.
enum class Kind : std::uint8_t {
    reading,    ///< opening and reading a file (read_file, map_file)
    listing,    ///< listing a directory
    examining,  ///< stat, readlink or realpath of a path
    redacting,  ///< gather --redact rewriting a stored file
};

/// Records `kind` on `path` as the operation in progress until the scope ends. Costs a lock
/// that is never contended and a copy of the path (at most kMaxPathBytes): no allocation, no
/// system call, so it can sit on every file system call of the run.
class Scope {
  public:
    Scope(Kind kind, std::string_view path) noexcept;
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    std::uint64_t generation_;
};

/// Longest path kept; longer ones keep their first bytes and are marked truncated.
inline constexpr std::size_t kMaxPathBytes = 512;

/// The latest recorded activity, as another thread (the watchdog) sees it.
struct Snapshot {
    bool recorded = false;     ///< false until the first Scope of the process
    bool in_progress = false;  ///< the operation has not returned yet
    std::string description;   ///< "reading /etc/ld.so.cache" (control bytes shown as '?')
};

/// Takes a consistent copy of the record; safe from any thread at any time.
Snapshot snapshot();

}  // namespace rdmi::activity
