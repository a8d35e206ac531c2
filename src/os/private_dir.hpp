// PrivateDir: a directory only this process uses (0700, in a parent no other user controls),
// removed with everything in it when the run ends, however it ends (normally, or by a signal
// or the watchdog).
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi {

/// An owned temporary directory. At most one exists at a time (the one a signal removes).
class PrivateDir {
  public:
    /// Creates "<parent>/rdmi-probe.XXXXXX" with mode 0700. `parent` is $TMPDIR or /tmp; it is
    /// opened once and held, and refused (a Gap naming it) when another user could swap what
    /// is made there: owned by neither root nor the effective user (naming its owner), or
    /// writable by group or others without the sticky bit.
    static Result<PrivateDir> create(const std::string& parent);

    PrivateDir(PrivateDir&& other) noexcept;
    PrivateDir& operator=(PrivateDir&&) = delete;
    PrivateDir(const PrivateDir&) = delete;
    PrivateDir& operator=(const PrivateDir&) = delete;
    /// Removes the tree (only in the process that created it, never in a forked child).
    ~PrivateDir();

    [[nodiscard]] const std::string& path() const { return path_; }

  private:
    PrivateDir(std::string path, int parent_fd, int owner)
        : path_(std::move(path)), parent_fd_(parent_fd), owner_(owner) {}
    std::string path_;
    int parent_fd_ = -1;  ///< the parent, held: the tree is removed relative to it
    int owner_ = 0;       ///< pid of the creator; 0 once moved from
};

/// The run's private directory, made when something first needs one, so that a run that needs
/// none makes none; or the one the run already owns (a bundle archive's extraction), since at
/// most one PrivateDir exists at a time. Thread-safe.
class RunPrivateDir {
  public:
    /// Makes its own PrivateDir in `parent` ($TMPDIR or /tmp) when first used.
    explicit RunPrivateDir(std::string parent) : parent_(std::move(parent)) {}
    /// Uses `owned` (which must outlive this object) instead of making one.
    void share(const PrivateDir& owned);

    /// A new, empty directory "<private dir>/<stem>.<n>" (mode 0700) for one use.
    Result<std::string> new_directory(std::string_view stem);

  private:
    std::mutex mutex_;
    std::string parent_;
    std::optional<PrivateDir> own_;
    std::string shared_;
    int made_ = 0;
};

/// Where a private directory is made: $TMPDIR when it is an absolute path, else /tmp.
std::string default_private_parent();

/// Writes `bytes` to the new file `name` (mode 0600) in the directory `dir`, which the run
/// made: never through a link, never over an existing file.
Result<bool> write_new_file(const std::string& dir, std::string_view name, std::string_view bytes);

/// Removes the live PrivateDir's tree, if any, with async-signal-safe calls only (openat,
/// getdents64, unlinkat): what the signal handlers and the watchdog call before _exit.
void remove_private_dir_now() noexcept;

/// Removes the tree below and including `path` without following any link (the same walk).
/// False when something could not be removed.
bool remove_tree(const char* path) noexcept;

}  // namespace rdmi
