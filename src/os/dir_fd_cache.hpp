// DirFdCache: descriptors of directories already resolved below a root, kept for one run so
// that a file of such a directory is one path component away instead of a walk from the root.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "os/unique_fd.hpp"

namespace rdmi {

/// A bounded set of O_PATH directory descriptors by in-root path, least recently used first
/// out. A directory is opened on its second use (one that is read once costs what it did).
/// Thread-safe; a descriptor handed out stays open while its holder keeps it, even when the
/// cache has dropped it. In a forked child the cache answers nothing (a lock held by another
/// thread at fork() would never be released there).
class DirFdCache {
  public:
    /// How many directories are remembered (and so kept open) at most, below a high enough
    /// descriptor limit: the cache takes at most a quarter of RLIMIT_NOFILE's soft limit.
    static constexpr std::size_t kCapacity = 48;

    /// Opens an in-root directory for the cache: an O_PATH descriptor, or -1 (any failure:
    /// the caller then opens the file by its whole path, with the gap that gives).
    using Opener = std::function<int(std::string_view dir)>;

    DirFdCache();

    /// How directories are opened (set once, before the first get()).
    void set_opener(Opener opener) { opener_ = std::move(opener); }

    /// The descriptor of `dir`, or null when it is not (yet) cached or cannot be opened.
    [[nodiscard]] std::shared_ptr<const UniqueFd> get(std::string_view dir);

    /// The open descriptor of the nearest directory above `path` (a strict ancestor), and the
    /// length of that directory's path; null when none is open. Not counted as a use.
    [[nodiscard]] std::shared_ptr<const UniqueFd> nearest(std::string_view path,
                                                          std::size_t& dir_length);

    /// Forgets every directory and closes the descriptors no caller holds any more; returns
    /// how many the cache held. For a process out of descriptors (EMFILE, ENFILE).
    std::size_t clear();

    /// How many directories this cache keeps open at most (kCapacity, or less under a low
    /// descriptor limit).
    [[nodiscard]] std::size_t capacity() const { return capacity_; }

    /// Stops answering (the kernel refused a relative open the cache relies on).
    void disable() { disabled_.store(true, std::memory_order_relaxed); }

  private:
    struct Slot {
        std::string dir;
        std::shared_ptr<const UniqueFd> fd;  ///< null: seen once, or could not be opened
        bool failed = false;                 ///< the open failed: not tried again
        std::uint64_t last_use = 0;
    };

    [[nodiscard]] bool answering() const;
    std::vector<Slot>::iterator find(std::string_view dir);
    std::vector<Slot>::iterator remember(std::string_view dir);

    Opener opener_;
    std::mutex mutex_;
    std::size_t capacity_;     ///< at most kCapacity, a quarter of the descriptor limit
    std::vector<Slot> slots_;  ///< at most capacity_
    std::uint64_t clock_ = 0;  ///< counts uses; a slot's last_use says how recent it is
    unsigned fork_generation_;
    std::atomic<bool> disabled_{false};
};

}  // namespace rdmi
