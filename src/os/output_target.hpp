// Where a write lands: the output path resolved once into a held directory, a name in it and
// what that name held when it was looked at, with every symbolic link on the way vetted.
#pragma once

#include <sys/stat.h>

#include <string>

#include "core/result.hpp"

namespace rdmi {

/// The resolved target of a write. Every later step (open, create, rename, unlink) is made
/// relative to `dir_fd()`, and owner and mode come from `st()`, never from the path again.
class OutputTarget {
  public:
    OutputTarget(int dir_fd, std::string name, std::string shown, int object_fd,
                 const struct stat& st, bool through_link);
    OutputTarget(OutputTarget&& other) noexcept;
    OutputTarget& operator=(OutputTarget&&) = delete;
    OutputTarget(const OutputTarget&) = delete;
    OutputTarget& operator=(const OutputTarget&) = delete;
    ~OutputTarget();

    /// The directory that holds `name()` (an O_PATH descriptor, opened once).
    [[nodiscard]] int dir_fd() const { return dir_fd_; }
    /// The last component, in `dir_fd()`.
    [[nodiscard]] const std::string& name() const { return name_; }
    /// The path to `name()` for messages: the path given, or the text of the link that led here.
    [[nodiscard]] const std::string& shown() const { return shown_; }
    /// False when nothing is at `name()` yet (a new file).
    [[nodiscard]] bool exists() const { return object_fd_ >= 0; }
    /// What the name held (following a symbolic link to a device, FIFO or socket), by fstat.
    [[nodiscard]] const struct stat& st() const { return st_; }
    /// True when `name()` is itself a symbolic link to a character device, FIFO or socket:
    /// opening it for writing then follows the link, and must reach the `st()` object.
    [[nodiscard]] bool through_link() const { return through_link_; }

  private:
    int dir_fd_;
    std::string name_;
    std::string shown_;
    int object_fd_;
    struct stat st_ {};
    bool through_link_;
};

/// Resolves `path` for writing. The directory part is opened once, as the kernel resolves it.
/// A symbolic link as the last component is followed only when it leads to a character
/// device, FIFO or socket (whoever owns it: nothing is replaced there), or when its owner is
/// root or the effective user; then its target is resolved by the same rule (at most 40
/// links). A link to nothing, or owned by another user and leading to anything else, is a Gap
/// naming the link (and its owner).
Result<OutputTarget> resolve_output_target(const std::string& path);

}  // namespace rdmi
