// RootedFs: every path is opened below the root (openat2(RESOLVE_IN_ROOT) where the kernel has
// it, user-space resolution otherwise), non-blocking, and checked to be what the caller expects.
#include "os/rooted_fs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "os/activity.hpp"
#include "os/dir_fd_cache.hpp"
#include "os/errno_gap.hpp"
#include "os/fd_pair.hpp"
#include "os/mapped_regions.hpp"
#include "os/path_resolver.hpp"
#include "os/proc_fd_dir.hpp"
#include "os/string_bytes.hpp"
#include "os/unique_fd.hpp"

namespace rdmi {
namespace {

FileType file_type_of(mode_t mode) {
    if (S_ISREG(mode)) return FileType::regular;
    if (S_ISDIR(mode)) return FileType::directory;
    if (S_ISLNK(mode)) return FileType::symlink;
    if (S_ISFIFO(mode)) return FileType::fifo;
    if (S_ISSOCK(mode)) return FileType::socket;
    if (S_ISCHR(mode)) return FileType::char_device;
    if (S_ISBLK(mode)) return FileType::block_device;
    return FileType::other;
}

FileInfo file_info_of(const struct stat& st) {
    return FileInfo{file_type_of(st.st_mode), static_cast<std::uint32_t>(st.st_mode & 07777U),
                    st.st_uid, st.st_gid, static_cast<std::uint64_t>(st.st_size)};
}

FileType file_type_of_dirent(unsigned char d_type) {
    switch (d_type) {
        case DT_REG:
            return FileType::regular;
        case DT_DIR:
            return FileType::directory;
        case DT_LNK:
            return FileType::symlink;
        case DT_FIFO:
            return FileType::fifo;
        case DT_SOCK:
            return FileType::socket;
        case DT_CHR:
            return FileType::char_device;
        case DT_BLK:
            return FileType::block_device;
        default:
            return FileType::other;
    }
}

long openat2_in_root(int root_fd, std::string_view path, int flags) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
    // RESOLVE_IN_ROOT: "/" and ".." in the path and in link targets mean the root, as in
    // chroot; magic links (/proc/self/fd/...) could escape it, so they are refused.
    how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
    const std::string relative(path.substr(path.find_first_not_of('/') == std::string_view::npos
                                               ? path.size()
                                               : path.find_first_not_of('/')));
    const char* name = relative.empty() ? "." : relative.c_str();
    for (int attempt = 0;; ++attempt) {
        const long fd = ::syscall(SYS_openat2, root_fd, name, &how, sizeof how);
        // EAGAIN: a concurrent rename raced with ".." resolution; the kernel asks to retry.
        if (fd >= 0 || errno != EAGAIN || attempt == 8) return fd;
    }
}

// Reads to the end, bounded by `max_bytes`. `size_hint` is what fstat said: a file on disk
// ends there, and a sysfs attribute reports one page and holds less, all of it handed over by
// the first read. So a read that stops short of the buffer exactly at the size, or below a
// page that is the size, is the end: the read that would only return 0 is skipped. Anything
// else (procfs says 0, a file that shrank or grew) is read until a read returns 0.
// A buffer of up to a page (every sysfs attribute) is on the stack: a string of that size
// would be zero-filled for the few bytes read, and would keep its page of capacity.
Result<std::string> read_all(int fd, std::string_view path, std::size_t max_bytes,
                             std::size_t size_hint) {
    static const auto page = static_cast<std::size_t>(::getpagesize());
    // One byte more than expected: a full buffer means there may be more.
    std::size_t capacity = std::min(size_hint == 0 ? page : size_hint, max_bytes) + 1;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init): read(2) fills it
    std::array<char, 4097> small;
    std::string data;
    bool on_stack = capacity <= small.size();
    if (!on_stack) data.resize(capacity);
    char* buffer = on_stack ? small.data() : data.data();
    std::size_t have = 0;
    while (true) {
        if (have == capacity) {
            capacity = std::min(capacity * 2, max_bytes + 1);
            if (on_stack) data.assign(small.data(), have);
            on_stack = false;
            data.resize(capacity);
            buffer = data.data();
        }
        const ssize_t got = ::read(fd, buffer + have, capacity - have);
        if (got < 0) {
            if (errno == EINTR) continue;
            return gap_from_errno(path, errno);
        }
        if (got == 0) break;
        have += static_cast<std::size_t>(got);
        if (have > max_bytes) {
            return make_gap(GapReason::malformed, std::string(path) + ": larger than " +
                                                      std::to_string(max_bytes) + " bytes");
        }
        const bool short_read = have < capacity;
        if (short_read && size_hint != 0 &&
            (have == size_hint || (size_hint == page && have < page)))
            break;
    }
    if (on_stack) return std::string(small.data(), have);
    data.resize(have);
    return data;
}

Gap not_regular_gap(std::string_view path, mode_t mode) {
    return make_gap(GapReason::malformed, std::string(path) + ": is a " +
                                              std::string(to_string(file_type_of(mode))) +
                                              ", not a regular file");
}

// Runs `open` (a call returning a descriptor, or -1 with errno) once more when the process or
// the system is out of descriptors (EMFILE, ENFILE) and the directory cache had some to give
// back: a low descriptor limit then costs speed, not answers.
template <typename Open>
auto open_retrying(DirFdCache* dirs, const Open& open) {
    auto fd = open();
    if (fd < 0 && (errno == EMFILE || errno == ENFILE) && dirs != nullptr && dirs->clear() > 0)
        fd = open();
    return fd;
}

// The flags of every descriptor a file is read through; O_NONBLOCK and O_NOCTTY only matter
// if something other than a regular file slipped through, which the dev/ino check refuses.
constexpr int kReadFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY;

// For a descriptor already opened for reading (a live /sys or /proc file): its fstat in `st`,
// or why it is not a regular file.
std::optional<Gap> require_regular(int fd, std::string_view path, struct stat& st) {
    if (::fstat(fd, &st) != 0) return gap_from_errno(path, errno);
    if (S_ISREG(st.st_mode)) return std::nullopt;
    return not_regular_gap(path, st.st_mode);
}

// Opens for reading the regular file that `path_fd` (an O_PATH descriptor) holds, `st` being
// what fstat said of it (and still saying it of the returned descriptor: the same inode).
//
// A read needs a descriptor opened for reading, and opening a device node runs its driver's
// open(): /dev/watchdog arms the hardware watchdog, a tape rewinds, a serial line drops DTR. So
// a file is opened O_PATH first (no driver, no FIFO open), checked to be regular, and the very
// inode that descriptor holds is opened through procfs's /proc/self/fd (held open:
// os/proc_fd_dir.hpp). Without it, `reopen` opens the
// path a second time and the file it gives must be the one checked (same st_dev and st_ino):
// a device swapped in between would be opened, then refused (docs/reliability.md).
template <typename Reopen>
Result<int> open_checked_regular(int path_fd, std::string_view path, struct stat& st,
                                 DirFdCache* dirs, const Reopen& reopen) {
    if (!S_ISREG(st.st_mode)) return not_regular_gap(path, st.st_mode);
    const int fd = open_retrying(dirs, [&] { return reopen_through_proc(path_fd, kReadFlags); });
    if (fd >= 0) return fd;
    if (errno != ENOENT) return gap_from_errno(path, errno);
    // No procfs at /proc/self/fd: by name again, and only the inode checked.
    auto again = reopen();
    if (!again) return again.gap();
    UniqueFd owned(*again);
    struct stat now {};
    if (::fstat(owned.get(), &now) != 0) return gap_from_errno(path, errno);
    if (now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
        if (!S_ISREG(now.st_mode)) return not_regular_gap(path, now.st_mode);
        return make_gap(GapReason::error, std::string(path) + ": replaced while being opened");
    }
    st = now;
    return owned.release();
}

class MappedBytes final : public FileBytes {
  public:
    // Remembered by path so that a SIGBUS (the file shrank under the mapping) can name it.
    MappedBytes(void* base, std::size_t size, std::string_view path)
        : base_(base), size_(size), path_(path) {
        remember_mapping(base_, size_, path_.c_str());
    }
    MappedBytes(const MappedBytes&) = delete;
    MappedBytes& operator=(const MappedBytes&) = delete;
    ~MappedBytes() override {
        forget_mapping(base_);
        ::munmap(base_, size_);
    }
    [[nodiscard]] std::string_view bytes() const override {
        return {static_cast<const char*>(base_), size_};
    }

  private:
    void* base_;
    std::size_t size_;
    std::string path_;
};

}  // namespace

struct RootedFs::RootFd {
    int fd;
    explicit RootFd(int f) : fd(f) {}
    RootFd(const RootFd&) = delete;
    RootFd& operator=(const RootFd&) = delete;
    ~RootFd() { ::close(fd); }
};

Result<RootedFs> RootedFs::open(const std::string& root, Resolution resolution, bool live_allowed,
                                LinkRule links) {
    if (root.empty()) return make_gap(GapReason::error, "empty path");
    std::unique_ptr<char, decltype(&std::free)> canonical(::realpath(root.c_str(), nullptr),
                                                          &std::free);
    if (!canonical) return gap_from_errno(root, errno);
    if (links.owner_match) {
        // The root is named by the user, and a link on its way is judged like any other.
        std::string named = root;
        if (named.front() != '/') {
            std::array<char, 4096> cwd{};
            if (::getcwd(cwd.data(), cwd.size()) == nullptr) return gap_from_errno(root, errno);
            named = join_path(cwd.data(), root);
        }
        if (auto walked = resolve_in_root("/", named, true, links); !walked) return walked.gap();
    }
    struct stat st {};
    if (::stat(canonical.get(), &st) != 0) return gap_from_errno(root, errno);
    if (!S_ISDIR(st.st_mode)) return make_gap(GapReason::error, root + ": not a directory");
    const std::string path = canonical.get();
    if (path == "/" || resolution == Resolution::userspace)
        return RootedFs(path, nullptr, live_allowed && path == "/", std::move(links));
    const int fd = ::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return gap_from_errno(root, errno);
    auto root_fd = std::make_shared<RootFd>(fd);
    // Kernels before 5.6 lack openat2 (ENOSYS); some container seccomp profiles refuse it (EPERM).
    const long probe = openat2_in_root(fd, "/", O_PATH);
    if (probe < 0) return RootedFs(path, nullptr, live_allowed && path == "/", std::move(links));
    ::close(static_cast<int>(probe));
    return RootedFs(path, std::move(root_fd), live_allowed && path == "/", std::move(links));
}

namespace {

// openat2 of `relative` (one or more plain components) below the directory `dir_fd`, following
// no link at all: -1 with errno ELOOP when a component is one.
long openat2_plain(int dir_fd, const std::string& relative, int flags) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_BENEATH;
    return ::syscall(SYS_openat2, dir_fd, relative.c_str(), &how, sizeof how);
}

// True for an openat2 refusal that a whole-path open, resolved from the root, may not give:
// ELOOP (a link: its target is resolved from the root), EAGAIN and EXDEV (openat2's own),
// ENOSYS (no openat2) and EPERM (a seccomp profile that refuses it).
bool retry_whole_path(int err) {
    return err == ELOOP || err == EAGAIN || err == EXDEV || err == ENOSYS || err == EPERM;
}

}  // namespace

RootedFs::RootedFs(std::string root, std::shared_ptr<RootFd> root_fd, bool live, LinkRule links)
    : root_(std::move(root)),
      root_fd_(std::move(root_fd)),
      live_(live),
      links_(std::move(links)),
      walked_(std::make_shared<WalkedDirs>()) {
    if (live_) {
        const auto mounted = [](const char* dir, decltype(statfs::f_type) type) {
            struct statfs fs {};
            return ::statfs(dir, &fs) == 0 && fs.f_type == type;
        };
        sysfs_at_sys_ = mounted("/sys", SYSFS_MAGIC);
        procfs_at_proc_ = mounted("/proc", PROC_SUPER_MAGIC);
    }
    // The opener holds what it needs by value, the cache weakly: the view may be moved, and
    // the cache owns the opener.
    auto dirs = std::make_shared<DirFdCache>();
    dirs_ = dirs;
    dirs->set_opener([root = root_, root_fd = root_fd_, links = links_, walked = walked_,
                      weak = std::weak_ptr<DirFdCache>(dirs)](std::string_view dir) -> int {
        if (auto cache = weak.lock()) {
            std::size_t length = 0;
            if (auto above = cache->nearest(dir, length)) {
                const long fd = openat2_plain(above->get(), std::string(dir.substr(length + 1)),
                                              O_PATH | O_DIRECTORY);
                if (fd >= 0) return static_cast<int>(fd);
                if (!retry_whole_path(errno)) return -1;
            }
        }
        auto fd = open_whole_path(root, root_fd.get(), links, walked.get(), nullptr, dir,
                                  O_PATH | O_DIRECTORY);
        return fd ? *fd : -1;
    });
}

namespace {

// openat2 of the in-root `path` following no link at all: below the root's descriptor, or,
// without one, by its host path (`root` is canonical: no link above it). -1 with errno ELOOP
// when a component is a link (an O_PATH | O_NOFOLLOW open of a final link gives the link).
long open_following_no_link(const std::string& root, int root_fd, std::string_view path,
                            int flags) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
    how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    std::string name;
    int dir_fd = AT_FDCWD;
    if (root_fd >= 0) {
        how.resolve |= RESOLVE_IN_ROOT;
        dir_fd = root_fd;
        name = path.substr(std::min(path.find_first_not_of('/'), path.size()));
        if (name.empty()) name = ".";
    } else {
        name = host_path_of(root, std::string(path));
    }
    for (int attempt = 0;; ++attempt) {
        const long fd = ::syscall(SYS_openat2, dir_fd, name.c_str(), &how, sizeof how);
        // EAGAIN: a concurrent rename raced with ".." resolution; the kernel asks to retry.
        if (fd >= 0 || errno != EAGAIN || attempt == 8) return fd;
    }
}

// Without openat2: the in-root `path` (no "." or "..", no link on it when it was walked) opened
// below the root's host path one component at a time, each directory held by descriptor and
// none followed: -1 with errno ELOOP when a component is a link now. Only the root's own host
// path is opened by name (it is canonical, and was judged when the view was opened).
int open_components_following_no_link(const std::string& root, std::string_view path, int flags) {
    // NOLINTNEXTLINE(*-vararg)
    auto dir = std::make_unique<UniqueFd>(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (dir->get() < 0) return -1;
    std::size_t start = path.find_first_not_of('/');
    while (start != std::string_view::npos && start < path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string name(path.substr(start, end - start));
        start = path.find_first_not_of('/', end);
        if (start == std::string_view::npos) {
            // NOLINTNEXTLINE(*-vararg)
            return ::openat(dir->get(), name.c_str(), flags | O_NOFOLLOW | O_CLOEXEC);
        }
        // O_PATH | O_NOFOLLOW holds a link itself: refused below, never followed.
        auto next = std::make_unique<UniqueFd>(
            ::openat(dir->get(), name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));  // NOLINT
        if (next->get() < 0) return -1;
        struct stat st {};
        if (::fstat(next->get(), &st) != 0) return -1;
        if (!S_ISDIR(st.st_mode)) {
            errno = S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR;
            return -1;
        }
        dir = std::move(next);
    }
    // The root itself.
    if ((flags & O_PATH) != 0) return ::fcntl(dir->get(), F_DUPFD_CLOEXEC, 0);
    return ::openat(dir->get(), ".", flags | O_CLOEXEC);  // NOLINT(*-vararg)
}

// The owner rule's open (os/link_rule.hpp). A path with no link on it, most of them, costs one
// openat2 as before; one with a link is walked in user space, each link judged with the lstat
// the walk makes anyway, then opened as walked following nothing, so that a link planted after
// the walk is refused rather than followed unjudged. A file of a directory walked before is
// opened below where that directory led, again one openat2 (sysfs reaches every file of a
// device through a link).
Result<int> open_judging_links(const std::string& root, int root_fd, const LinkRule& links,
                               WalkedDirs* walked, DirFdCache* dirs, std::string_view path,
                               int flags) {
    bool tried = false;
    if (walked != nullptr && plain_absolute_path(path)) {
        if (auto known = walked->find(dir_name(path))) {
            const std::string there = join_path(*known, base_name(path));
            const long fd = open_retrying(
                dirs, [&] { return open_following_no_link(root, root_fd, there, flags); });
            if (fd >= 0) return static_cast<int>(fd);
            if (!retry_whole_path(errno)) return gap_from_errno(path, errno);
            tried = true;  // the file itself is a link: the walk starts at the directory
        }
    }
    // Below a root without openat2, a path's ".." could climb out by its host path: walk it.
    if (!tried && (root == "/" || root_fd >= 0)) {
        const long fd =
            open_retrying(dirs, [&] { return open_following_no_link(root, root_fd, path, flags); });
        if (fd >= 0) return static_cast<int>(fd);
        if (!retry_whole_path(errno)) return gap_from_errno(path, errno);
    }
    auto resolved = resolve_in_root(root, path, (flags & O_NOFOLLOW) == 0, links, walked);
    if (!resolved) return resolved.gap();
    long fd = open_retrying(
        dirs, [&] { return open_following_no_link(root, root_fd, *resolved, flags); });
    if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
        // No openat2 (kernel before 5.6, a seccomp profile): the walked path is opened one
        // component at a time, following none, so that no component swapped for a link since
        // the walk is followed.
        fd = open_retrying(
            dirs, [&] { return open_components_following_no_link(root, *resolved, flags); });
    }
    if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW) == 0)
        return make_gap(GapReason::error,
                        std::string(path) + ": a symbolic link appeared while it was opened");
    if (fd < 0) return gap_from_errno(path, errno);
    return static_cast<int>(fd);
}

}  // namespace

Result<int> RootedFs::open_whole_path(const std::string& root, const RootFd* root_fd,
                                      const LinkRule& links, WalkedDirs* walked, DirFdCache* dirs,
                                      std::string_view path, int flags) {
    if (links.owner_match)
        return open_judging_links(root, root_fd != nullptr ? root_fd->fd : -1, links, walked, dirs,
                                  path, flags);
    int fd = -1;
    if (root == "/") {
        const std::string whole(path);
        fd = open_retrying(dirs, [&] { return ::open(whole.c_str(), flags | O_CLOEXEC); });
    } else if (root_fd != nullptr) {
        fd = static_cast<int>(
            open_retrying(dirs, [&] { return openat2_in_root(root_fd->fd, path, flags); }));
    } else {
        const bool follow_last = (flags & O_NOFOLLOW) == 0;
        auto resolved = resolve_in_root(root, path, follow_last, links);
        if (!resolved) return resolved.gap();
        // Every link is resolved already; refuse one planted since.
        const std::string host = host_path_of(root, *resolved);
        fd = open_retrying(dirs,
                           [&] { return ::open(host.c_str(), flags | O_NOFOLLOW | O_CLOEXEC); });
    }
    if (fd < 0) return gap_from_errno(path, errno);
    return fd;
}

namespace {

// The directory of `path` when a cached descriptor may stand for it; "" otherwise. The root is
// held already; /proc/self is a different directory in a forked child.
std::string_view cacheable_dir(std::string_view path) {
    if (!plain_absolute_path(path)) return {};
    const std::string_view dir = dir_name(path);
    if (dir == "/" || dir == "/proc" || dir.starts_with("/proc/")) return {};
    return dir;
}

}  // namespace

std::shared_ptr<const UniqueFd> RootedFs::cached_parent(std::string_view path) const {
    const std::string_view dir = cacheable_dir(path);
    return dir.empty() ? nullptr : dirs_->get(dir);
}

std::optional<Result<int>> RootedFs::open_in_cached_dir(std::string_view path, int flags) const {
    const std::string_view dir = cacheable_dir(path);
    if (dir.empty()) return std::nullopt;
    std::size_t length = dir.size();
    auto dir_fd = dirs_->get(dir);
    if (!dir_fd) dir_fd = dirs_->nearest(dir, length);
    if (!dir_fd) return std::nullopt;
    const std::string relative(path.substr(length + 1));
    const long fd =
        open_retrying(dirs_.get(), [&] { return openat2_plain(dir_fd->get(), relative, flags); });
    if (fd >= 0) return Result<int>(static_cast<int>(fd));
    const int err = errno;
    if (err == ENOSYS || err == EPERM) dirs_->disable();
    if (retry_whole_path(err)) return std::nullopt;
    return Result<int>(gap_from_errno(path, err));
}

Result<int> RootedFs::open_path(std::string_view path, int flags, bool follow_last) const {
    if (path.empty() || path.front() != '/') {
        return make_gap(GapReason::error, std::string(path) + ": not an absolute path");
    }
    if (!follow_last) flags |= O_NOFOLLOW;
    if (auto fd = open_in_cached_dir(path, flags)) return std::move(*fd);
    // The live sysfs holds only links the kernel made (and no magic link): judging them would
    // cost a walk per device link (stat() of /sys/class/...) for nothing.
    static const LinkRule every_link;
    const bool kernel_links = kernel_pseudo_files(path) && path.starts_with("/sys/");
    return open_whole_path(root_, root_fd_.get(), kernel_links ? every_link : links_,
                           kernel_links ? nullptr : walked_.get(), dirs_.get(), path, flags);
}

Result<std::string> RootedFs::host_path(std::string_view path) const {
    if (root_ == "/") {
        if (path.empty() || path.front() != '/')
            return make_gap(GapReason::error, std::string(path) + ": not an absolute path");
        return std::string(path);
    }
    auto resolved =
        resolve_in_root(root_, path, true, links_, links_.owner_match ? walked_.get() : nullptr);
    if (!resolved) return resolved.gap();
    return host_path_of(root_, *resolved);
}

namespace {

// The whole of a regular file opened for reading (`st`: its fstat), bounded by `max_bytes`.
Result<std::string> read_opened_file(int fd, const struct stat& st, std::string_view path,
                                     std::size_t max_bytes) {
    // A file that says it is over the cap is refused before a byte is read. sysfs and procfs
    // report sizes that are not the content length (0, or a page of up to 64 KiB), so a size
    // that small is no evidence: those are read to EOF, bounded.
    constexpr std::size_t kPseudoFileSize = std::size_t{64} << 10U;
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size > max_bytes && size > kPseudoFileSize) {
        return make_gap(GapReason::malformed, std::string(path) + ": larger than " +
                                                  std::to_string(max_bytes) + " bytes");
    }
    return read_all(fd, path, max_bytes, size);
}

}  // namespace

Result<std::string> RootedFs::read_file(std::string_view path, std::size_t max_bytes) const {
    // Named for the run's watchdog: a read on a hung mount blocks here, in the kernel.
    const activity::Scope doing(activity::Kind::reading, path);
    struct stat st {};
    int checked = -1;
    auto fd = open_regular_checked(path, st, checked);
    const FdPair both(checked, fd ? *fd : -1);
    if (!fd) return fd.gap();
    return read_opened_file(both.opened(), st, path, max_bytes);
}

// The kernel's own file systems, /sys and /proc, hold no device node and no FIFO. On the live
// system their files are opened for reading at once: a real BlueField's sysfs has hundreds of
// files per RDMA port (one per GID table entry), and the O_PATH check would cost three system
// calls more for each. Under --root, /sys and /proc are whatever the tree holds.
// Only a plain path: "/sys/../dev/x" is no file of /sys. A path that is one may still leave
// /proc through a magic link (/proc/self/root/dev/x, /proc/self/fd/N): the opens below refuse
// to follow one (open_pseudo_file, on_kernel_pseudo_fs).
// And only where the kernel's file systems are mounted there (asked when the view is opened): a
// mount namespace may hold any file system at /proc or /sys.
bool RootedFs::kernel_pseudo_files(std::string_view path) const {
    if (!live_ || !plain_absolute_path(path)) return false;
    if (path.starts_with("/sys/")) return sysfs_at_sys_;
    return path.starts_with("/proc/") && procfs_at_proc_;
}

namespace {

// Opens for reading a live /sys or /proc file by its whole path, following no magic link;
// nullopt when the O_PATH check must decide instead (a magic link on the way, or no openat2).
std::optional<Result<int>> open_pseudo_file(std::string_view path, DirFdCache* dirs) {
    const std::string whole(path);
    open_how how{};
    how.flags = static_cast<std::uint64_t>(kReadFlags | O_CLOEXEC);
    how.resolve = RESOLVE_NO_MAGICLINKS;
    const long fd = open_retrying(
        dirs, [&] { return ::syscall(SYS_openat2, AT_FDCWD, whole.c_str(), &how, sizeof how); });
    if (fd >= 0) return Result<int>(static_cast<int>(fd));
    if (retry_whole_path(errno)) return std::nullopt;
    return Result<int>(gap_from_errno(path, errno));
}

// Whether the directory `dir_fd` holds is one of sysfs or procfs, not a directory that a magic
// link such as /proc/self/root led to, nor another file system mounted below /sys or /proc.
bool on_kernel_pseudo_fs(int dir_fd) {
    struct statfs fs {};
    return ::fstatfs(dir_fd, &fs) == 0 &&
           (fs.f_type == SYSFS_MAGIC || fs.f_type == PROC_SUPER_MAGIC);
}

}  // namespace

namespace {

// A hard link has no owner of its own: a user who may write a directory the probe reads can
// name there any file of the same file system they may search their way to (where
// fs.protected_hardlinks is 0), /etc/shadow included, and the owner rule never sees a link.
// So, as root, a file with more than one name that others may not read is read only from a
// directory of root or of the file's owner: who else put it there could not have read it.
bool suspect_hard_link(const struct stat& st) {
    return S_ISREG(st.st_mode) && st.st_nlink > 1 && (st.st_mode & S_IROTH) == 0;
}

// Why the suspect file `st` may not be read from a directory owned as `dir` says (null: not
// known); nullopt when it may, or when --allow-foreign-links reads it (reported).
std::optional<Gap> hard_link_refusal(std::string_view path, const struct stat& st,
                                     const struct stat* dir, const LinkRule& links) {
    if (dir != nullptr && (dir->st_uid == 0 || dir->st_uid == st.st_uid)) return std::nullopt;
    const std::string passwd = passwd_below("/");
    std::string why = "a file with " + std::to_string(st.st_nlink) +
                      " names (a hard link) owned by " + owner_name(st.st_uid, passwd) +
                      " and not readable by others, in a directory " +
                      (dir != nullptr ? "owned by " + owner_name(dir->st_uid, passwd)
                                      : std::string("whose owner is not known"));
    if (links.on_followed_anyway) {
        links.on_followed_anyway(std::string(path) + ": " + why);
        return std::nullopt;
    }
    return Gap{GapReason::untrusted,
               std::string(path) + ": not read: " + why + " (--allow-foreign-links reads it)"};
}

}  // namespace

Result<int> RootedFs::open_regular(std::string_view path, struct stat& st) const {
    int checked = -1;
    auto fd = open_regular_checked(path, st, checked);
    if (checked >= 0) ::close(checked);
    return fd;
}

Result<int> RootedFs::open_regular_checked(std::string_view path, struct stat& st,
                                           int& checked) const {
    checked = -1;
    if (kernel_pseudo_files(path)) {
        // A cached directory's file is opened beneath it following no link at all.
        auto fd = open_in_cached_dir(path, kReadFlags);
        if (!fd) fd = open_pseudo_file(path, dirs_.get());
        if (fd) {
            if (!*fd) return fd->gap();
            UniqueFd owned(**fd);
            if (auto gap = require_regular(owned.get(), path, st)) return *gap;
            return owned.release();
        }
    }
    auto path_fd = open_path(path, O_PATH, true);
    if (!path_fd) return path_fd.gap();
    UniqueFd held(*path_fd);
    if (::fstat(held.get(), &st) != 0) return gap_from_errno(path, errno);
    if (links_.owner_match && suspect_hard_link(st)) {
        // The directory the name was found in: where the descriptor's name says it is.
        std::array<char, 32> proc{};
        std::snprintf(proc.data(), proc.size(), "/proc/self/fd/%d", held.get());
        std::array<char, 4096> name{};
        const ssize_t len = ::readlink(proc.data(), name.data(), name.size() - 1);
        struct stat dir {};
        const bool known =
            len > 0 &&
            ::stat(std::string(dir_name(std::string_view(name.data(), len))).c_str(), &dir) == 0;
        if (auto gap = hard_link_refusal(path, st, known ? &dir : nullptr, links_)) return *gap;
    }
    auto fd = open_checked_regular(held.get(), path, st, dirs_.get(),
                                   [&] { return open_path(path, kReadFlags, true); });
    if (fd) checked = held.release();
    return fd;
}

// Resolving a path below the root costs a walk of every component per file (in the kernel,
// or one lstat each in user space): most of the time of reading a directory of 100,000 small
// files. The directory is resolved once; a file name is then one component relative to it.
// O_NOFOLLOW keeps that from following anything: a file that is a link fails with ELOOP and
// is read by its whole path, where its target is resolved below the root. The directory is the
// one the root held when it was opened; a file of it can only be reached through it.
class RootedFs::OpenDirFiles final : public DirFiles {
  public:
    OpenDirFiles(const RootedFs& fs, const std::string& dir, int dir_fd)
        : fs_(fs),
          prefix_(dir == "/" ? dir : dir + "/"),
          dir_fd_(dir_fd),
          pseudo_(fs.kernel_pseudo_files(prefix_) && on_kernel_pseudo_fs(dir_fd)) {}
    OpenDirFiles(const OpenDirFiles&) = delete;
    OpenDirFiles& operator=(const OpenDirFiles&) = delete;
    ~OpenDirFiles() override { ::close(dir_fd_); }

    [[nodiscard]] Result<std::string> read_file(std::string_view path,
                                                std::size_t max_bytes) const override {
        const std::string_view name = entry_name(path);
        if (name.empty()) return fs_.read_file(path, max_bytes);
        const activity::Scope doing(activity::Kind::reading, path);
        const std::string file(name);
        DirFdCache* dirs = fs_.dirs_.get();
        if (pseudo_) {
            const UniqueFd owned(open_retrying(dirs, [&] {
                return ::openat(dir_fd_, file.c_str(), kReadFlags | O_NOFOLLOW | O_CLOEXEC);
            }));
            if (owned.get() < 0 && errno == ELOOP) return fs_.read_file(path, max_bytes);
            if (owned.get() < 0) return gap_from_errno(path, errno);
            struct stat st {};
            if (auto gap = require_regular(owned.get(), path, st)) return *gap;
            return read_opened_file(owned.get(), st, path, max_bytes);
        }
        // O_PATH | O_NOFOLLOW: a link is held itself, not followed, and read by its whole path.
        UniqueFd held(open_retrying(dirs, [&] {
            return ::openat(dir_fd_, file.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
        }));
        if (held.get() < 0) return gap_from_errno(path, errno);
        struct stat st {};
        if (::fstat(held.get(), &st) != 0) return gap_from_errno(path, errno);
        if (S_ISLNK(st.st_mode)) return fs_.read_file(path, max_bytes);
        if (fs_.links_.owner_match && suspect_hard_link(st)) {
            struct stat dir {};
            const bool known = ::fstat(dir_fd_, &dir) == 0;
            if (auto gap = hard_link_refusal(path, st, known ? &dir : nullptr, fs_.links_))
                return *gap;
        }
        auto fd = open_checked_regular(held.get(), path, st, dirs, [&]() -> Result<int> {
            const int again = open_retrying(dirs, [&] {
                return ::openat(dir_fd_, file.c_str(), kReadFlags | O_NOFOLLOW | O_CLOEXEC);
            });
            if (again < 0) return gap_from_errno(path, errno);
            return again;
        });
        if (!fd) return fd.gap();
        const FdPair both(held.release(), *fd);
        return read_opened_file(both.opened(), st, path, max_bytes);
    }

  private:
    // The file name when `path` names an entry of this directory; "" otherwise (another
    // directory, a deeper path, "." or "..", a trailing slash).
    [[nodiscard]] std::string_view entry_name(std::string_view path) const {
        if (path.size() <= prefix_.size() || path.substr(0, prefix_.size()) != prefix_) return {};
        const std::string_view name = path.substr(prefix_.size());
        if (name.find('/') != std::string_view::npos || name == "." || name == "..") return {};
        return name;
    }

    const RootedFs& fs_;
    std::string prefix_;  ///< the in-root directory with one trailing '/'
    int dir_fd_;
    bool pseudo_;  ///< a live directory of sysfs or procfs: kernel_pseudo_files()
};

std::unique_ptr<DirFiles> RootedFs::dir_files(std::string_view dir) const {
    const std::string canonical = join_path(dir, "");
    auto fd = canonical.empty() || canonical.front() != '/'
                  ? Result<int>(make_gap(GapReason::error, "not an absolute path"))
                  : open_path(canonical, O_PATH | O_DIRECTORY, true);
    // A directory that cannot be opened: each file by its path, with the gaps that gives.
    if (!fd) return Fs::dir_files(dir);
    return std::make_unique<OpenDirFiles>(*this, canonical, *fd);
}

namespace {

// Up to this size map_file() reads instead of mapping.
constexpr std::size_t kReadRatherThanMap = std::size_t{64} << 10U;

}  // namespace

Result<std::shared_ptr<const FileBytes>> RootedFs::map_file(std::string_view path,
                                                            std::size_t max_bytes) const {
    const activity::Scope doing(activity::Kind::reading, path);
    struct stat st {};
    int checked = -1;
    auto fd = open_regular_checked(path, st, checked);
    const FdPair owned(checked, fd ? *fd : -1);
    if (!fd) return fd.gap();
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size > max_bytes) {
        return make_gap(GapReason::malformed, std::string(path) + ": larger than " +
                                                  std::to_string(max_bytes) + " bytes");
    }
    // Empty, or a pseudo-file whose size is not its length: read it instead. A small file too:
    // one read(2) costs less than mmap, its page faults and munmap (a header, a .pc file).
    if (size <= kReadRatherThanMap) {
        auto data = read_all(owned.opened(), path, max_bytes, size);
        if (!data) return data.gap();
        return std::shared_ptr<const FileBytes>(
            std::make_shared<StringBytes>(std::move(data).value()));
    }
    void* base = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, owned.opened(), 0);
    if (base == MAP_FAILED) return gap_from_errno(path, errno);
    return std::shared_ptr<const FileBytes>(std::make_shared<MappedBytes>(base, size, path));
}

void RootedFs::forget_resolved() const {
    if (dirs_) dirs_->clear();
    if (walked_) walked_->clear();
}

Result<std::vector<DirEntry>> RootedFs::list_dir(std::string_view path) const {
    const activity::Scope doing(activity::Kind::listing, path);
    auto fd = open_path(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK, true);
    if (!fd) return fd.gap();
    const UniqueFd owned(*fd);
    // getdents64 itself: opendir/readdir would add an fstat and an fcntl per directory.
    std::vector<DirEntry> entries;
    alignas(8) std::array<char, 32768> buf;  // NOLINT(cppcoreguidelines-pro-type-member-init)
    while (true) {
        const ssize_t got = ::getdents64(owned.get(), buf.data(), buf.size());
        if (got < 0) {
            if (errno == EINTR) continue;
            return gap_from_errno(path, errno);
        }
        if (got == 0) break;
        for (std::size_t at = 0; at < static_cast<std::size_t>(got);) {
            // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
            std::uint16_t reclen = 0;
            if (static_cast<std::size_t>(got) - at < 20) break;  // never: the kernel's records
            std::memcpy(&reclen, buf.data() + at + 16, sizeof reclen);
            if (reclen < 20 || reclen > static_cast<std::size_t>(got) - at) break;
            const auto d_type = static_cast<unsigned char>(buf[at + 18]);
            const char* raw = buf.data() + at + 19;
            at += reclen;
            const std::string_view name(raw);
            if (name == "." || name == "..") continue;
            FileType type = file_type_of_dirent(d_type);
            if (d_type == DT_UNKNOWN) {
                struct stat st {};
                if (::fstatat(owned.get(), raw, &st, AT_SYMLINK_NOFOLLOW) == 0)
                    type = file_type_of(st.st_mode);
            }
            entries.push_back(DirEntry{std::string(name), type});
        }
    }
    std::sort(entries.begin(), entries.end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    return entries;
}

Result<FileInfo> RootedFs::stat(std::string_view path, bool follow) const {
    const activity::Scope doing(activity::Kind::examining, path);
    struct stat st {};
    // One fstatat below the directory's descriptor, the last component not followed: a link
    // to follow is resolved from the root below.
    if (const auto dir_fd = cached_parent(path)) {
        const std::string name(base_name(path));
        if (::fstatat(dir_fd->get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return gap_from_errno(path, errno);
        if (!follow || !S_ISLNK(st.st_mode)) return file_info_of(st);
    }
    auto fd = open_path(path, O_PATH, follow);
    if (!fd) return fd.gap();
    const UniqueFd owned(*fd);
    if (::fstat(owned.get(), &st) != 0) return gap_from_errno(path, errno);
    return file_info_of(st);
}

Result<std::string> RootedFs::read_link(std::string_view path) const {
    const activity::Scope doing(activity::Kind::examining, path);
    std::array<char, 4096>
        buf;  // NOLINT(cppcoreguidelines-pro-type-member-init): filled by the kernel
    ssize_t len = -1;
    if (const auto dir_fd = cached_parent(path)) {
        // One readlinkat below the directory's descriptor; EINVAL: not a link.
        const std::string name(base_name(path));
        len = ::readlinkat(dir_fd->get(), name.c_str(), buf.data(), buf.size());
        if (len < 0 && errno == EINVAL)
            return make_gap(GapReason::error, std::string(path) + ": not a symbolic link");
    } else {
        auto fd = open_path(path, O_PATH, false);
        if (!fd) return fd.gap();
        const UniqueFd owned(*fd);
        // readlinkat on an O_PATH descriptor of the link itself, with an empty name (Linux
        // 2.6.39+); on a descriptor of anything else it fails with ENOENT.
        len = ::readlinkat(owned.get(), "", buf.data(), buf.size());
        if (len < 0 && errno == ENOENT)
            return make_gap(GapReason::error, std::string(path) + ": not a symbolic link");
    }
    if (len < 0) return gap_from_errno(path, errno);
    if (static_cast<std::size_t>(len) == buf.size()) return gap_from_errno(path, ENAMETOOLONG);
    return std::string(buf.data(), static_cast<std::size_t>(len));
}

Result<std::string> RootedFs::real_path(std::string_view path) const {
    const activity::Scope doing(activity::Kind::examining, path);
    // realpath(3) follows every link; under the owner rule the walk below judges each one.
    if (root_ == "/" && !links_.owner_match) {
        std::unique_ptr<char, decltype(&std::free)> canonical(
            ::realpath(std::string(path).c_str(), nullptr), &std::free);
        if (!canonical) return gap_from_errno(path, errno);
        return std::string(canonical.get());
    }
    if (root_fd_) {
        // The kernel already resolved the path; ask it where the descriptor points.
        auto fd = open_path(path, O_PATH, true);
        if (!fd) return fd.gap();
        const UniqueFd owned(*fd);
        std::array<char, 4096>
            buf;  // NOLINT(cppcoreguidelines-pro-type-member-init): filled by the kernel
        const std::string proc = "/proc/self/fd/" + std::to_string(owned.get());
        const ssize_t len = ::readlink(proc.c_str(), buf.data(), buf.size());
        const std::string_view host(buf.data(), len > 0 ? static_cast<std::size_t>(len) : 0);
        if (len > 0 && static_cast<std::size_t>(len) < buf.size() &&
            host.substr(0, root_.size()) == root_ &&
            (host.size() == root_.size() || host[root_.size()] == '/')) {
            return host.size() == root_.size() ? std::string("/")
                                               : std::string(host.substr(root_.size()));
        }
        // No /proc, or the root itself moved: fall back to resolving in user space.
    }
    auto resolved =
        resolve_in_root(root_, path, true, links_, links_.owner_match ? walked_.get() : nullptr);
    if (!resolved) return resolved.gap();
    struct stat st {};
    if (::lstat(host_path_of(root_, *resolved).c_str(), &st) != 0)
        return gap_from_errno(path, errno);
    return resolved;
}

}  // namespace rdmi
