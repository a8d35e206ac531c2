// RealPaths: realpath(3) for the trust checks, resolved with openat one component at a time and
// each directory remembered, so that the next library of a directory costs one component.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "os/unique_fd.hpp"

namespace rdmi {

/// The canonical paths of host files, as realpath(3) gives them (the same path, or the same
/// errno: ENOENT, ENOTDIR, ELOOP past 40 links, EACCES, ...), without its walk of every
/// component with readlink on each call. A directory is opened once (O_PATH | O_NOFOLLOW, from
/// its parent's descriptor; readlinkat only on a link) and remembered by the path it was asked
/// by: its canonical path, a descriptor while fewer than kOpenDirs are held, and how many links
/// its resolution followed (so a later path through it counts them towards the loop limit as
/// realpath would). A file's last component is one readlinkat from its directory. Only facts
/// are kept; a run's checks see one snapshot of the tree. Thread-safe: the system calls are made
/// outside the lock.
class RealPaths {
  public:
    /// How many directory descriptors are held at most (fewer under a low descriptor limit: an
    /// eighth of RLIMIT_NOFILE's soft limit); directories past that are reopened by their
    /// canonical path when used.
    static constexpr std::size_t kOpenDirs = 64;
    /// Below this many (a descriptor limit under 64), and when its own opens run out of
    /// descriptors, a path is left to realpath(3), which needs none.
    static constexpr std::size_t kLowLimitDirs = 8;
    /// How many links one resolution follows before ELOOP (glibc's and the kernel's limit).
    static constexpr int kMaxLinks = 40;

    struct Answer {
        int err = 0;       ///< 0, or realpath(3)'s errno
        std::string path;  ///< the canonical path when err is 0
    };

    /// realpath(path). A relative path is left to realpath(3) itself.
    Answer resolve(const std::string& path);

    /// realpath(3) itself: the fallback, and what resolve() must always agree with.
    static Answer libc(const std::string& path);

  private:
    struct Dir {
        std::string canonical;
        std::shared_ptr<const UniqueFd> fd;  ///< null past kOpenDirs
        int links = 0;                       ///< links followed to resolve it from "/"
    };
    using DirRef = std::shared_ptr<const Dir>;
    /// A directory, or the errno that stopped it.
    struct DirAnswer {
        int err = 0;
        DirRef dir;
    };

    DirAnswer resolve_dir(std::string_view text, int& links);
    DirAnswer step_into(const DirRef& parent, std::string_view name, int& links);
    Answer resolve_file(std::string_view text, int& links);
    DirAnswer root();
    DirRef remember(std::string_view text, Dir dir);
    DirRef find(std::string_view text);
    /// A descriptor of `dir` for one use: its own, or one opened by its canonical path.
    std::shared_ptr<const UniqueFd> descriptor(const Dir& dir);

    std::mutex mutex_;
    std::map<std::string, DirRef, std::less<>> dirs_;
    std::size_t open_dirs_ = 0;
    std::size_t max_open_dirs_ = 0;  ///< known once a directory is held (0: not asked yet)
    bool limit_known_ = false;
};

}  // namespace rdmi
