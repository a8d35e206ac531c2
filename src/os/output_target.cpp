// resolve_output_target: openat(O_PATH | O_NOFOLLOW) one component at a time for the last one,
// readlinkat on the link's own descriptor, so that what is vetted is what is followed.
#include "os/output_target.hpp"

#include <fcntl.h>
#include <linux/limits.h>
#include <unistd.h>

#include <cerrno>
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

bool written_in_place(mode_t mode) {
    return S_ISCHR(mode) || S_ISFIFO(mode) || S_ISSOCK(mode);
}

// Where a link's text leads, for messages: relative texts are relative to the link's directory.
std::string link_text_path(const std::string& link_shown, const std::string& text) {
    if (!text.empty() && text.front() == '/') return text;
    return join_path(dir_name(link_shown), text);
}

}  // namespace

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

Result<OutputTarget> resolve_output_target(const std::string& path) {
    if (path.empty()) return not_followed(path, "an empty path");
    // "out.json/" names a directory: the kernel would refuse a file there too.
    bool must_be_dir = path.size() > 1 && path.back() == '/';
    int base = AT_FDCWD;
    std::string dir(dir_name(path));
    std::string name(base_name(path));
    std::string shown = path;
    const int self = static_cast<int>(::geteuid());
    for (int hop = 0;; ++hop) {
        const int dir_fd = ::openat(base, dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (base != AT_FDCWD) ::close(base);
        if (dir_fd < 0) {
            // Both names: the file asked for, and the directory that is missing or unreadable.
            Gap gap = gap_from_errno(dir_name(shown), errno);
            gap.message = shown + ": cannot open its directory (" + gap.message + ")";
            return gap;
        }
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

        // A link: what the kernel reaches through it decides whether its owner matters. A
        // device, FIFO or socket is written in place (`/dev/stdout` is a link to
        // `/proc/self/fd/1`, a magic link this walk could not spell), so it is kept as reached.
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
        if (written_in_place(reached_st.st_mode)) {
            ::close(object);
            return OutputTarget(dir_fd, name, shown, reached, reached_st, true);
        }
        ::close(reached);
        // Anything else through the link may be replaced, so the link must be trusted: made by
        // root or by the user the document is written as, never by someone who could point
        // it anywhere between two looks.
        if (st.st_uid != 0 && static_cast<int>(st.st_uid) != self) {
            ::close(object);
            return fail(not_followed(shown, "a symbolic link owned by " + user_label(st.st_uid) +
                                                ", not by " + trusted_owners_label() +
                                                " (not followed)"));
        }
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
