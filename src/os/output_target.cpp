// resolve_output_target: openat(O_PATH | O_NOFOLLOW) one component at a time for the last one,
// readlinkat on the link's own descriptor, so that what is vetted is what is followed.
#include "os/output_target.hpp"

#include <fcntl.h>
#include <linux/limits.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <string_view>
#include <utility>

#include "os/errno_gap.hpp"
#include "os/fs.hpp"
#include "os/user_label.hpp"

namespace rdmi {
namespace {

// What the kernel allows in one path walk (MAXSYMLINKS): a longer chain is a loop to it too.
constexpr int kMaxOutputLinks = 40;

Gap not_followed(const std::string& shown, const std::string& why) {
    return make_gap(GapReason::error, shown + ": " + why + "; not written");
}

bool trusted_owner(uid_t uid) {
    return uid == 0 || uid == ::geteuid();
}

bool on_procfs(int fd) {
    struct statfs fs {};
    return ::fstatfs(fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

bool written_in_place(mode_t mode) {
    return S_ISCHR(mode) || S_ISFIFO(mode) || S_ISSOCK(mode);
}

// Where a link's text leads, for messages: relative texts are relative to the link's directory.
std::string link_text_path(const std::string& link_shown, const std::string& text) {
    if (!text.empty() && text.front() == '/') return text;
    return join_path(dir_name(link_shown), text);
}

// The components of a path, in order ("" and "." skipped).
std::deque<std::string> path_parts(std::string_view path) {
    std::deque<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t slash = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, slash - start);
        if (!part.empty() && part != ".") parts.emplace_back(part);
        start = slash + 1;
    }
    return parts;
}

}  // namespace

Result<int> open_vetted_dir(int base, const std::string& dir, const std::string& shown) {
    auto fail = [&](int err) -> Result<int> {
        // Both names: the file asked for, and the directory that is missing or unreadable.
        Gap gap = gap_from_errno(dir.empty() ? "." : dir, err);
        gap.message = shown + ": cannot open its directory (" + gap.message + ")";
        return gap;
    };
    const bool absolute = !dir.empty() && dir.front() == '/';
    int cur = ::openat(base, absolute ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (cur < 0) return fail(errno);
    std::string at = absolute ? "/" : "";  // where the walk is, for messages
    std::deque<std::string> parts = path_parts(dir);
    int links = 0;
    while (!parts.empty()) {
        const std::string part = std::move(parts.front());
        parts.pop_front();
        const std::string here = at.empty() ? part : join_path(at, part);
        const int next = ::openat(cur, part.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
        struct stat st {};
        if (next < 0 || ::fstat(next, &st) != 0) {
            const int err = errno;
            if (next >= 0) ::close(next);
            ::close(cur);
            return fail(err);
        }
        if (S_ISDIR(st.st_mode)) {
            ::close(cur);
            cur = next;
            at = here;
            continue;
        }
        if (!S_ISLNK(st.st_mode) || ++links > kMaxOutputLinks) {
            ::close(next);
            ::close(cur);
            return fail(S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR);
        }
        // A link among the directories: the same rule as for the last component, which the
        // kernel's fs.protected_symlinks applies only in sticky directories, and only when on.
        if (const uid_t owner = st.st_uid; !trusted_owner(owner)) {
            ::close(next);
            ::close(cur);
            return not_followed(here, "a symbolic link owned by " + user_label(owner) +
                                          ", not by " + trusted_owners_label() + " (not followed)");
        }
        char text[PATH_MAX];
        const ssize_t n = ::readlinkat(next, "", text, sizeof text - 1);
        const int err = errno;
        ::close(next);
        if (n <= 0) {
            ::close(cur);
            return fail(n < 0 ? err : ENOENT);
        }
        const std::string_view target(text, static_cast<std::size_t>(n));
        std::deque<std::string> more = path_parts(target);
        parts.insert(parts.begin(), more.begin(), more.end());
        if (target.front() == '/') {
            ::close(cur);
            cur = ::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
            if (cur < 0) return fail(errno);
            at = "/";
        }
    }
    return cur;
}

OutputTarget::OutputTarget(int dir_fd, std::string name, std::string shown, int object_fd,
                           const struct stat& st, bool through_link)
    : dir_fd_(dir_fd),
      name_(std::move(name)),
      shown_(std::move(shown)),
      object_fd_(object_fd),
      st_(st),
      through_link_(through_link) {}

OutputTarget::OutputTarget(OutputTarget&& other) noexcept
    : dir_fd_(std::exchange(other.dir_fd_, -1)),
      name_(std::move(other.name_)),
      shown_(std::move(other.shown_)),
      object_fd_(std::exchange(other.object_fd_, -1)),
      st_(other.st_),
      through_link_(other.through_link_) {}

OutputTarget::~OutputTarget() {
    if (object_fd_ >= 0) ::close(object_fd_);
    if (dir_fd_ >= 0) ::close(dir_fd_);
}

bool dir_open_to_others(int dir_fd) {
    struct stat st {};
    if (::fstat(dir_fd, &st) != 0) return true;
    return !trusted_owner(st.st_uid) || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
}

bool OutputTarget::dir_open_to_others() const {
    return rdmi::dir_open_to_others(dir_fd_);
}

Result<OutputTarget> resolve_output_target(const std::string& path) {
    if (path.empty()) return not_followed(path, "an empty path");
    // "out.json/" names a directory: the kernel would refuse a file there too.
    bool must_be_dir = path.size() > 1 && path.back() == '/';
    int base = AT_FDCWD;
    std::string dir(dir_name(path));
    std::string name(base_name(path));
    std::string shown = path;
    for (int hop = 0;; ++hop) {
        auto opened = open_vetted_dir(base, dir, shown);
        if (base != AT_FDCWD) ::close(base);
        if (!opened) return opened.gap();
        const int dir_fd = *opened;
        auto fail = [&](Gap gap) -> Result<OutputTarget> {
            ::close(dir_fd);
            return gap;
        };
        const int object = ::openat(dir_fd, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (object < 0 && errno == ENOENT && hop > 0)
            return fail(not_followed(shown, "a symbolic link's target is missing (not created)"));
        if (object < 0 && errno == ENOENT) return OutputTarget(dir_fd, name, shown, -1, {}, false);
        if (object < 0) return fail(gap_from_errno(shown, errno));
        struct stat st {};
        if (::fstat(object, &st) != 0) {
            const int err = errno;
            ::close(object);
            return fail(gap_from_errno(shown, err));
        }
        if (must_be_dir && !S_ISDIR(st.st_mode)) {
            ::close(object);
            return fail(gap_from_errno(shown, ENOTDIR));
        }
        if (!S_ISLNK(st.st_mode)) return OutputTarget(dir_fd, name, shown, object, st, false);

        // A link is followed only when it is trusted: made by root or by the user the document
        // is written as, never by someone who could point it anywhere (a character device such
        // as /dev/port or /dev/mem included: opening one for writing is already a deed).
        if (!trusted_owner(st.st_uid)) {
            ::close(object);
            return fail(not_followed(shown, "a symbolic link owned by " + user_label(st.st_uid) +
                                                ", not by " + trusted_owners_label() +
                                                " (not followed)"));
        }
        // What the link reaches (O_PATH opens nothing): a link to nothing is refused as such.
        // A magic link of /proc (`/dev/stdout` is a link to `/proc/self/fd/1`) leads to an open
        // file whose text may name no path (pipe:[...]): a device, FIFO or socket it reaches is
        // kept as reached. Every other link is walked by its text, one vetted link at a time.
        const int reached = ::openat(dir_fd, name.c_str(), O_PATH | O_CLOEXEC);
        struct stat reached_st {};
        if (reached < 0 || ::fstat(reached, &reached_st) != 0) {
            const int err = errno;
            if (reached >= 0) ::close(reached);
            ::close(object);
            if (err == ENOENT)
                return fail(
                    not_followed(shown, "a symbolic link to a missing file (not followed)"));
            return fail(gap_from_errno(shown, err));
        }
        if (written_in_place(reached_st.st_mode) && on_procfs(object)) {
            ::close(object);
            return OutputTarget(dir_fd, name, shown, reached, reached_st, true);
        }
        ::close(reached);
        if (hop + 1 >= kMaxOutputLinks) {
            ::close(object);
            return fail(gap_from_errno(shown, ELOOP));
        }
        // The text of this very link (its descriptor), not of whatever the name holds now.
        char text[PATH_MAX];
        const ssize_t n = ::readlinkat(object, "", text, sizeof text - 1);
        const int err = errno;
        ::close(object);
        if (n <= 0) return fail(gap_from_errno(shown, n < 0 ? err : ENOENT));
        const std::string target(text, static_cast<std::size_t>(n));
        shown = link_text_path(shown, target);
        dir = std::string(dir_name(target));
        name = std::string(base_name(target));
        base = dir_fd;  // a relative target is relative to the link's directory
        must_be_dir = false;
    }
}

}  // namespace rdmi
