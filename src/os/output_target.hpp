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
    /// True when `name()` is a magic link of /proc (`/proc/self/fd/1`) to a character device,
    /// FIFO or socket: opening it for writing then follows the link, and must reach `st()`.
    [[nodiscard]] bool through_link() const { return through_link_; }
    /// An O_PATH descriptor of what `st()` describes (-1 when nothing exists at `name()`).
    [[nodiscard]] int object_fd() const { return object_fd_; }
    /// True when a user other than root and the effective user may create names in
    /// `dir_fd()`: then a name there may be a hard link to a file that user could never write.
    [[nodiscard]] bool dir_open_to_others() const;

  private:
    int dir_fd_;
    std::string name_;
    std::string shown_;
    int object_fd_;
    struct stat st_ {};
    bool through_link_;
};

/// Resolves `path` for writing. The directory part is opened once (open_vetted_dir: a link in
/// it is followed only when root or the effective user owns it).
/// A symbolic link as the last component is followed only when its owner is root or the
/// effective user, whatever it leads to; then its target is resolved by the same rule (at most
/// 40 links), so that each link of a chain is vetted. A magic link of /proc that reaches a
/// character device, FIFO or socket (`/proc/self/fd/1`, a terminal or a pipe) ends the walk
/// there. A link to nothing, or owned by another user, is a Gap naming the link (and its owner).
Result<OutputTarget> resolve_output_target(const std::string& path);

/// Opens the directory `dir` (relative to `base`, or absolute) as an O_PATH descriptor, one
/// component at a time without following links by the kernel: a symbolic link among them is
/// followed only when root or the effective user owns it (at most 40). `shown` is the path the
/// messages name. The caller closes the descriptor.
Result<int> open_vetted_dir(int base, const std::string& dir, const std::string& shown);

/// True when a user other than root and the effective user may create names in the directory
/// `dir_fd`: it is owned by another user, or group or others may write it (sticky or not).
bool dir_open_to_others(int dir_fd);

}  // namespace rdmi
