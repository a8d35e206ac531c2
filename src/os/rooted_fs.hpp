// RootedFs: the real file system seen through a root directory (chroot-like, without privilege).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "os/fs.hpp"
#include "os/link_rule.hpp"

struct stat;

namespace rdmi {

class DirFdCache;
class UniqueFd;
class WalkedDirs;

/// The host file system below `root`. Symbolic links are followed inside the root: absolute
/// targets are re-rooted, ".." never climbs above it, and a loop is an error (not a hang).
/// Files must be regular: a path is opened O_PATH, checked, and only a regular file is then
/// opened for reading, so a FIFO or device node is never opened (nor blocks, nor runs a driver).
/// The live system's /sys and /proc, which hold neither, are opened for reading at once.
/// Directories used more than once are kept open for the life of the view (and its copies),
/// and their files opened relative to them: a directory renamed meanwhile is still the one the
/// view resolved first.
/// Under the owner rule (os/link_rule.hpp) every operation that follows a link (a read, a map,
/// a listing, stat() that follows, real_path(), host_path() below a root) refuses one whose
/// owner is neither root nor its target's owner: a path is first opened following no link at
/// all, and only a path with a link on it is walked in user space, link by link, then opened
/// as walked, again following none. Not judged, because only the kernel makes links there:
/// the files of the live /sys and /proc read at once (which follow no magic link), and every
/// path below the live /sys.
class RootedFs final : public Fs {
  public:
    /// How paths below a non-"/" root are resolved.
    enum class Resolution {
        kernel,     ///< openat2(RESOLVE_IN_ROOT), one system call; user space when unavailable
        userspace,  ///< one lstat per component (os/path_resolver.hpp)
    };

    /// Opens a view below `root`. Fails when `root` is not an existing directory. The view is
    /// live (is_live()) only when `root` resolves to "/" and `live_allowed` holds: an explicit
    /// --root is static even when it names "/". `links`: which links the view follows (by
    /// default, the owner rule when this process reads beyond its user's rights).
    static Result<RootedFs> open(const std::string& root,
                                 Resolution resolution = Resolution::kernel,
                                 bool live_allowed = true,
                                 LinkRule links = LinkRule::for_this_process());

    [[nodiscard]] Result<std::string> read_file(
        std::string_view path, std::size_t max_bytes = kDefaultReadCap) const override;
    [[nodiscard]] Result<std::shared_ptr<const FileBytes>> map_file(
        std::string_view path, std::size_t max_bytes) const override;
    /// The directory is opened once, resolved below the root like any path; each file is
    /// then opened relative to it with O_NOFOLLOW. A file that is a symbolic link is read by
    /// its whole path instead, so its target is resolved below the root as always.
    [[nodiscard]] std::unique_ptr<DirFiles> dir_files(std::string_view dir) const override;
    [[nodiscard]] Result<std::vector<DirEntry>> list_dir(std::string_view path) const override;
    void forget_resolved() const override;
    [[nodiscard]] Result<FileInfo> stat(std::string_view path, bool follow = true) const override;
    [[nodiscard]] Result<std::string> read_link(std::string_view path) const override;
    [[nodiscard]] Result<std::string> real_path(std::string_view path) const override;
    [[nodiscard]] Result<std::string> host_path(std::string_view path) const override;
    [[nodiscard]] const std::string& root() const override { return root_; }
    [[nodiscard]] bool is_live() const override { return live_; }

    /// Opens `path` for reading when it is a regular file, without ever opening anything
    /// else (a device node's open runs its driver), through the links the view follows;
    /// `st` is the file's fstat. Returns a file descriptor the caller must close.
    [[nodiscard]] Result<int> open_regular(std::string_view path, struct stat& st) const;

    /// True when paths are resolved by the kernel (openat2 worked when the root was opened).
    [[nodiscard]] bool kernel_resolution() const { return root_fd_ != nullptr; }

  private:
    struct RootFd;
    RootedFs(std::string root, std::shared_ptr<RootFd> root_fd, bool live, LinkRule links);

    class OpenDirFiles;

    /// Opens `path` (absolute, in-root) with `flags`, following a final link unless
    /// `follow_last` is false. Returns a file descriptor the caller must close.
    [[nodiscard]] Result<int> open_path(std::string_view path, int flags, bool follow_last) const;
    /// Whether `path` is in the live system's /sys or /proc, whose files need no O_PATH check.
    [[nodiscard]] bool kernel_pseudo_files(std::string_view path) const;
    /// open_regular(), leaving the O_PATH descriptor the file was checked through open in
    /// `checked` (-1 when there was none: a live /sys or /proc file) for the caller to close
    /// with the returned one (os/fd_pair.hpp).
    [[nodiscard]] Result<int> open_regular_checked(std::string_view path, struct stat& st,
                                                   int& checked) const;
    /// open_path() by the whole path, resolved from the root, following links as `links` says
    /// (`walked`: the directories the owner rule's walks resolved, or null).
    /// `dirs`: the cache to empty when out of descriptors (null: none).
    static Result<int> open_whole_path(const std::string& root, const RootFd* root_fd,
                                       const LinkRule& links, WalkedDirs* walked, DirFdCache* dirs,
                                       std::string_view path, int flags);
    /// open_path() relative to the cached descriptor of the path's directory; nullopt when
    /// that does not apply (no descriptor yet, a link to follow from the root, ...).
    [[nodiscard]] std::optional<Result<int>> open_in_cached_dir(std::string_view path,
                                                                int flags) const;
    /// The cached descriptor of the directory of `path`, for a call that takes a directory
    /// and one name without following it (fstatat, readlinkat); null when there is none.
    [[nodiscard]] std::shared_ptr<const UniqueFd> cached_parent(std::string_view path) const;

    std::string root_;                 ///< canonical absolute host path, "/" for the live system
    std::shared_ptr<RootFd> root_fd_;  ///< O_PATH descriptor of the root when using openat2
    bool live_ = false;                ///< live calls allowed (root "/" not named by --root)
    bool sysfs_at_sys_ = false;        ///< live, and /sys is sysfs: kernel_pseudo_files()
    bool procfs_at_proc_ = false;      ///< live, and /proc is procfs: kernel_pseudo_files()
    LinkRule links_;                   ///< which links are followed
    /// Directories walked under the owner rule (os/path_resolver.hpp), shared by copies.
    std::shared_ptr<WalkedDirs> walked_;
    /// Directories resolved already (os/dir_fd_cache.hpp), shared by copies of this view.
    std::shared_ptr<DirFdCache> dirs_;
};

}  // namespace rdmi
