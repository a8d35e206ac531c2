// write_output_file: resolve the target once (output_target.hpp), decide by fstat(2) of what
// was found, then either a temporary file and renameat(2) in the held directory, or an in-place
// write of the very file that was looked at, which cannot replace anything.
#include "os/output_file.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <thread>

#include "core/deadline.hpp"
#include "os/child_groups.hpp"
#include "os/errno_gap.hpp"
#include "os/fs.hpp"
#include "os/output_target.hpp"
#include "os/user_label.hpp"

namespace rdmi {
namespace {

int write_all(int fd, std::string_view content) {
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        done += static_cast<std::size_t>(n);
    }
    return 0;
}

std::string seconds_text(std::chrono::milliseconds wait) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", static_cast<double>(wait.count()) / 1000.0);
    return text;
}

// write_all() on a non-blocking descriptor whose reader may stall: a pipe or socket whose
// reader stops reading would otherwise hold the probe forever.
Result<bool> write_before(int fd, std::string_view content, const std::string& path,
                          const Deadline& until, std::chrono::milliseconds wait) {
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n >= 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return gap_from_errno(path, errno);
        pollfd ready{fd, POLLOUT, 0};
        const int polled = ::poll(&ready, 1, static_cast<int>(until.remaining().count()));
        if (polled < 0 && errno != EINTR) return gap_from_errno(path, errno);
        if (polled == 0) {
            return make_gap(GapReason::timeout,
                            path + ": the reader took " + std::to_string(done) + " of " +
                                std::to_string(content.size()) + " bytes and then none for " +
                                seconds_text(wait) + " (--timeout); the document is incomplete");
        }
    }
    return true;
}

// Opening a FIFO for writing blocks until a reader opens it: poll for one instead, so that a
// FIFO nobody reads ends the run with a message, not a hang.
int open_for_writing(const OutputTarget& target, int flags, const Deadline& until) {
    while (true) {
        const int fd = ::openat(target.dir_fd(), target.name().c_str(), flags | O_NONBLOCK);
        if (fd >= 0 || errno != ENXIO || until.expired()) return fd;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

Result<bool> refuse(const std::string& path, const std::string& why) {
    return make_gap(GapReason::error, path + ": " + why + "; not written");
}

bool same_file(const struct stat& a, const struct stat& b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// A character device or FIFO (or a regular file rewritten in place): open what was vetted and
// write, never replace. The open is relative to the held directory, follows a link only when
// the name was one to a device or FIFO, and must reach the very file that was looked at.
Result<bool> write_in_place(const OutputTarget& target, std::string_view content, bool truncate,
                            std::chrono::milliseconds wait) {
    const std::string& path = target.shown();
    const Deadline until(wait);
    const int fd = open_for_writing(
        target, O_WRONLY | O_NOCTTY | O_CLOEXEC | (target.through_link() ? 0 : O_NOFOLLOW), until);
    if (fd < 0 && errno == ENXIO) {
        return make_gap(GapReason::timeout, path + ": no process opened it for reading within " +
                                                seconds_text(wait) + " (--timeout); not written");
    }
    if (fd < 0) return gap_from_errno(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !same_file(st, target.st()) ||
        (st.st_mode & S_IFMT) != (target.st().st_mode & S_IFMT)) {
        // Replaced between the look and the open: starting again could race forever; refuse.
        ::close(fd);
        return refuse(path, "changed while being opened");
    }
    // Truncated only now: an O_TRUNC open would empty whatever had taken the name meanwhile.
    if (truncate && ::ftruncate(fd, 0) != 0) {
        const int err = errno;
        ::close(fd);
        return gap_from_errno(path, err);
    }
    auto written = write_before(fd, content, path, until, wait);
    if (::close(fd) != 0 && written) return gap_from_errno(path, errno);
    return written;
}

// Connected through the descriptor that was vetted (/proc/self/fd/N), never by the path
// again: a name swapped for a link to another socket meanwhile is not reached. Without /proc,
// the path given.
Result<bool> write_socket(const OutputTarget& target, std::string_view content,
                          std::chrono::milliseconds wait) {
    const std::string& path = target.shown();
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string by_fd = "/proc/self/fd/" + std::to_string(target.object_fd());
    struct stat seen {};
    const std::string& dial =
        ::stat(by_fd.c_str(), &seen) == 0 && same_file(seen, target.st()) ? by_fd : path;
    if (dial.size() >= sizeof addr.sun_path) return refuse(path, "socket path too long");
    std::memcpy(addr.sun_path, dial.c_str(), dial.size() + 1);
    const Deadline until(wait);
    for (int type : {SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM}) {
        const int fd = ::socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0) return gap_from_errno(path, errno);
        int err = 0;
        // A listener whose backlog is full answers EAGAIN to a non-blocking connect: try again
        // until it accepts or the wait is over.
        while (::connect(fd, reinterpret_cast<const sockaddr*>(&addr),  // NOLINT: socket API
                         sizeof addr) != 0) {
            err = errno;
            if (err != EAGAIN || until.expired()) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            err = 0;
        }
        if (err != 0) {
            ::close(fd);
            if (err == EPROTOTYPE) continue;  // another socket type listens there
            if (err == EAGAIN) {
                return make_gap(GapReason::timeout, path +
                                                        ": the listener accepted no connection "
                                                        "within " +
                                                        seconds_text(wait) +
                                                        " (--timeout); not written");
            }
            return gap_from_errno(path, err);
        }
        auto written = write_before(fd, content, path, until, wait);
        ::close(fd);
        return written;
    }
    return refuse(path, "a socket of an unknown type");
}

// "." + name + ".XXXXXX" in the held directory, created O_EXCL | O_NOFOLLOW (so never an
// existing file or a link planted under that name), mode 0600 until it is complete.
int create_temporary(int dir_fd, std::string_view target_name, std::string& created) {
    // The temporary's name must itself be a valid name: a target name near NAME_MAX is
    // shortened in the temporary's name, never refused for it.
    constexpr std::size_t kDecoration = 1 + 7;
    std::string stem(target_name);
    if (stem.size() > NAME_MAX - kDecoration) stem.resize(NAME_MAX - kDecoration);
    static constexpr char kLetters[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < 100; ++attempt) {
        unsigned char random[6];
        if (::getrandom(random, sizeof random, 0) != static_cast<ssize_t>(sizeof random)) return -1;
        std::string name = "." + stem + ".";
        for (unsigned char byte : random) name += kLetters[byte % (sizeof kLetters - 1)];
        const int fd = ::openat(dir_fd, name.c_str(),
                                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST) {
            created = std::move(name);
            return fd;
        }
    }
    errno = EEXIST;
    return -1;
}

// A temporary file beside the target, filled, given `owner` (when not null) and `mode`, and
// synced; the caller renames it. Its name is recorded so that an interrupt removes it.
Result<std::string> filled_temporary(const OutputTarget& target, std::string_view content,
                                     mode_t mode, const struct stat* owner) {
    std::string name;
    const int fd = create_temporary(target.dir_fd(), target.name(), name);
    if (fd < 0) {
        // The message names the directory: the document is written beside its target.
        const int err = errno;
        Gap gap = gap_from_errno(dir_name(target.shown()), err);
        gap.message = target.shown() + ": cannot create a temporary file in its directory (" +
                      gap.message + ")";
        return gap;
    }
    set_pending_file(target.dir_fd(), name);
    auto fail = [&](int err) -> Result<std::string> {
        ::close(fd);
        ::unlinkat(target.dir_fd(), name.c_str(), 0);
        clear_pending_file();
        return gap_from_errno(target.shown(), err);
    };
    if (const int err = write_all(fd, content); err != 0) return fail(err);
    if (owner != nullptr && (owner->st_uid != ::geteuid() || owner->st_gid != ::getegid()) &&
        ::fchown(fd, owner->st_uid, owner->st_gid) != 0) {
        return fail(errno);
    }
    // fchmod after fchown: chown clears set-ID bits.
    if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) return fail(errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlinkat(target.dir_fd(), name.c_str(), 0);
        clear_pending_file();
        return gap_from_errno(target.shown(), err);
    }
    return name;
}

// renameat on the held directory: the name is replaced as a name (a link that took it
// meanwhile is replaced itself, never followed).
Result<bool> finish_rename(const OutputTarget& target, const std::string& tmp, bool no_replace) {
    const int dir = target.dir_fd();
    const long rc = no_replace ? ::syscall(SYS_renameat2, dir, tmp.c_str(), dir,
                                           target.name().c_str(), RENAME_NOREPLACE)
                               : ::renameat(dir, tmp.c_str(), dir, target.name().c_str());
    const int err = errno;
    if (rc != 0) {
        ::unlinkat(dir, tmp.c_str(), 0);
        clear_pending_file();
        if (no_replace && err == EEXIST)
            return refuse(target.shown(), "created by someone else while being written");
        return gap_from_errno(target.shown(), err);
    }
    clear_pending_file();
    return true;
}

mode_t new_file_mode(NewFileMode kind) {
    switch (kind) {
        case NewFileMode::world_readable:
            return 0644;
        case NewFileMode::owner_only:
            return 0600;
        case NewFileMode::umask_0644:
            break;
    }
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0644 & ~mask;
}

Result<bool> write_new(const OutputTarget& target, std::string_view content, NewFileMode mode) {
    auto tmp = filled_temporary(target, content, new_file_mode(mode), nullptr);
    if (!tmp) return tmp.gap();
    // Never replaces: whatever appeared at the path meanwhile (a FIFO, a device) stays.
    return finish_rename(target, *tmp, true);
}

Result<bool> replace_regular(const OutputTarget& target, std::string_view content,
                             std::chrono::milliseconds wait) {
    const struct stat& st = target.st();
    const bool mine = st.st_uid == ::geteuid();
    if (st.st_nlink > 1) {
        // Several names share the file: rewritten in place, which keeps them all, but only a
        // file of our own. Another user's file may have been linked here to be overwritten.
        if (!mine) {
            return refuse(target.shown(), "a file with " + std::to_string(st.st_nlink) +
                                              " hard links owned by " + user_label(st.st_uid) +
                                              " (never written in place)");
        }
        // Our own file, but in a directory where another user may create names: the name may
        // be their hard link to a file of ours (/etc/shadow, for root) that they could never
        // write. It is replaced by a rename, which leaves the other names' content alone.
        if (!target.dir_open_to_others()) return write_in_place(target, content, true, wait);
    }
    // Only root may give a file away: another user's file is rewritten in place, which keeps
    // its owner.
    if (!mine && ::geteuid() != 0) return write_in_place(target, content, true, wait);
    auto tmp = filled_temporary(target, content, st.st_mode & 07777U, &st);
    if (!tmp) return tmp.gap();
    return finish_rename(target, *tmp, false);
}

}  // namespace

Result<bool> write_output_file(const std::string& path, std::string_view content,
                               std::chrono::milliseconds reader_wait, NewFileMode new_mode) {
    auto resolved = resolve_output_target(path);
    if (!resolved) return resolved.gap();
    const OutputTarget& target = *resolved;
    if (!target.exists()) return write_new(target, content, new_mode);
    const struct stat& st = target.st();
    const mode_t mode = st.st_mode;
    if (S_ISDIR(mode)) return refuse(target.shown(), "is a directory");
    if (S_ISBLK(mode)) return refuse(target.shown(), "is a block device");
    // A bundle holds copies of files only its writer could read: never given to another user,
    // neither as their file (which would keep its owner) nor through their FIFO or socket.
    // What stdout already is (/proc/self/fd/1) was chosen by whoever started the probe.
    if (new_mode == NewFileMode::owner_only && !target.through_link() && st.st_uid != ::geteuid() &&
        st.st_uid != 0) {
        return refuse(target.shown(), "owned by " + user_label(st.st_uid) +
                                          " (a bundle is never written to another user's file)");
    }
    // A device, FIFO or socket with several names, where another user may create names: one
    // of them may be that user's hard link to a node they could not open themselves.
    if (!S_ISREG(mode) && !target.through_link() && st.st_nlink > 1 &&
        target.dir_open_to_others()) {
        return refuse(target.shown(), "a " + std::string(S_ISCHR(mode) ? "device" : "node") +
                                          " with " + std::to_string(st.st_nlink) +
                                          " hard links in a directory others may create names "
                                          "in (never written in place)");
    }
    if (S_ISCHR(mode) || S_ISFIFO(mode)) return write_in_place(target, content, false, reader_wait);
    if (S_ISSOCK(mode)) return write_socket(target, content, reader_wait);
    if (S_ISREG(mode)) return replace_regular(target, content, reader_wait);
    return refuse(target.shown(), "not a regular file, device, FIFO or socket");
}

bool is_stdout_file(const std::string& path) {
    struct stat out {};
    struct stat named {};
    return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &named) == 0 &&
           out.st_dev == named.st_dev && out.st_ino == named.st_ino;
}

}  // namespace rdmi
