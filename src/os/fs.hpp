// Fs: the one seam through which every file the probe reads passes (rooted, bounded, never
// blocking).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace rdmi {

/// What kind of file system object a path names.
enum class FileType { regular, directory, symlink, fifo, socket, char_device, block_device, other };

/// The stable name of a file type ("regular", "directory", ...).
std::string_view to_string(FileType type);

/// The facts `stat` gives about one path.
struct FileInfo {
    FileType type = FileType::other;
    std::uint32_t mode = 0;  ///< permission bits incl. sticky/setuid (st_mode & 07777)
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    std::uint64_t size = 0;
};

/// One directory entry (never "." or "..").
struct DirEntry {
    std::string name;
    FileType type = FileType::other;  ///< type of the entry itself (a link is `symlink`)
};

/// The bytes of a whole file, however they are held (a mapping or a copy).
class FileBytes {
  public:
    virtual ~FileBytes() = default;
    /// The file's contents; valid as long as this object lives.
    [[nodiscard]] virtual std::string_view bytes() const = 0;
};

/// Reads many files of one directory. Same results and gaps as Fs::read_file on the same
/// paths; an implementation may resolve the directory once instead of once per file.
class DirFiles {
  public:
    virtual ~DirFiles() = default;
    /// Fs::read_file(path, max_bytes) for a `path` of this directory (any other path is read
    /// the ordinary way).
    [[nodiscard]] virtual Result<std::string> read_file(std::string_view path,
                                                        std::size_t max_bytes) const = 0;
};

/// Read-only view of a file system tree. Paths are absolute and interpreted inside the root.
/// Every operation returns a Gap instead of throwing for ENOENT, EACCES, loops, FIFOs, ...
class Fs {
  public:
    /// Default bound on how much one read_file() may return.
    static constexpr std::size_t kDefaultReadCap = 1U << 20U;

    virtual ~Fs() = default;

    /// Whole contents of a regular file, following links; a Gap for anything that is not a
    /// regular file (directories, FIFOs, sockets, devices) or is larger than `max_bytes`.
    [[nodiscard]] virtual Result<std::string> read_file(
        std::string_view path, std::size_t max_bytes = kDefaultReadCap) const = 0;

    /// The whole contents of a large regular file (an ELF library), mapped read-only where the
    /// implementation can; the same rules and gaps as read_file(). The default copies.
    [[nodiscard]] virtual Result<std::shared_ptr<const FileBytes>> map_file(
        std::string_view path, std::size_t max_bytes) const;

    /// A reader for many files of the in-root directory `dir` (a pkg-config directory of
    /// 100,000 modules). The default reads each by its whole path.
    [[nodiscard]] virtual std::unique_ptr<DirFiles> dir_files(std::string_view dir) const;

    /// Forgets what was learnt about the tree's directories and links (descriptors of resolved
    /// directories, walked links), so that the next reads see the tree as it is now: for a
    /// run that reads the same tree again after it may have changed (`check --wait`).
    virtual void forget_resolved() const {}

    /// Entries of a directory, sorted by name.
    [[nodiscard]] virtual Result<std::vector<DirEntry>> list_dir(std::string_view path) const = 0;

    /// Facts about a path; follows a final symbolic link when `follow` is true.
    [[nodiscard]] virtual Result<FileInfo> stat(std::string_view path,
                                                bool follow = true) const = 0;

    /// The target text of a symbolic link, unresolved.
    [[nodiscard]] virtual Result<std::string> read_link(std::string_view path) const = 0;

    /// The canonical in-root absolute path after following every link (like realpath(3)).
    [[nodiscard]] virtual Result<std::string> real_path(std::string_view path) const = 0;

    /// Where the in-root path lives on the host file system (for tools that need a real path).
    [[nodiscard]] virtual Result<std::string> host_path(std::string_view path) const = 0;

    /// The root directory on the host ("/" for the live system).
    [[nodiscard]] virtual const std::string& root() const = 0;

    /// True when live calls (dlopen, subprocesses, device opens) are allowed: the root is "/"
    /// and was not named with --root (any explicit --root, "/" included, is static).
    [[nodiscard]] virtual bool is_live() const { return root() == "/"; }

    /// True when `path` exists (following links).
    [[nodiscard]] bool exists(std::string_view path) const { return stat(path).ok(); }
};

/// Joins two path pieces with exactly one '/' between them.
std::string join_path(std::string_view base, std::string_view name);

/// The last component of a path ("libfoo.so" for "/usr/lib/libfoo.so").
std::string_view base_name(std::string_view path);

/// True when `path` is absolute and plain: no empty, "." or ".." component and no trailing
/// '/' (so it is its own canonical spelling when no component is a link).
bool plain_absolute_path(std::string_view path);

/// Everything before the last component ("/usr/lib" for "/usr/lib/libfoo.so"; "/" for "/x").
std::string_view dir_name(std::string_view path);

}  // namespace rdmi
