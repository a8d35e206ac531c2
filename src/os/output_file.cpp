// write_output_file: decide by stat(2) of the target, then either a temporary file and
// rename(2) in the target's own directory, or an in-place write that cannot replace anything.
#include "os/output_file.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "core/deadline.hpp"
#include "os/child_groups.hpp"
#include "os/errno_gap.hpp"
#include "os/fs.hpp"

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
int open_for_writing(const std::string& path, int flags, const Deadline& until) {
    while (true) {
        const int fd = ::open(path.c_str(), flags | O_NONBLOCK);
        if (fd >= 0 || errno != ENXIO || until.expired()) return fd;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

Result<bool> refuse(const std::string& path, const std::string& why) {
    return make_gap(GapReason::error, path + ": " + why + "; not written");
}

// A character device or FIFO: open and write, never truncate or replace (/dev/null, a pipe).
Result<bool> write_in_place(const std::string& path, std::string_view content, bool truncate,
                            std::chrono::milliseconds wait) {
    const Deadline until(wait);
    const int fd = open_for_writing(
        path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (truncate ? O_TRUNC | O_NOFOLLOW : 0), until);
    if (fd < 0 && errno == ENXIO) {
        return make_gap(GapReason::timeout, path + ": no process opened it for reading within " +
                                                seconds_text(wait) + " (--timeout); not written");
    }
    if (fd < 0) return gap_from_errno(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode) ||
        (!truncate && S_ISREG(st.st_mode))) {
        // Replaced between the check and the open: start again would race forever; refuse.
        ::close(fd);
        return refuse(path, "changed while being opened");
    }
    auto written = write_before(fd, content, path, until, wait);
    if (::close(fd) != 0 && written) return gap_from_errno(path, errno);
    return written;
}

Result<bool> write_socket(const std::string& path, std::string_view content,
                          std::chrono::milliseconds wait) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) return refuse(path, "socket path too long");
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
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

// A temporary file in `dir`, filled and synced; the caller renames it. Its name is recorded so
// that an interrupt removes it.
Result<std::string> filled_temporary(const std::string& target, std::string_view content,
                                     mode_t mode, const struct stat* keep_owner) {
    // "." + name + ".XXXXXX" must itself be a valid name: a target name near NAME_MAX is
    // shortened in the temporary's name, never refused for it.
    constexpr std::size_t kDecoration = 1 + 7;
    std::string stem(base_name(target));
    if (stem.size() > NAME_MAX - kDecoration) stem.resize(NAME_MAX - kDecoration);
    const std::string tmpl = join_path(dir_name(target), "." + stem + ".XXXXXX");
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) {
        // The message names the directory: the document is written beside its target.
        const int err = errno;
        Gap gap = gap_from_errno(dir_name(target), err);
        gap.message =
            target + ": cannot create a temporary file in its directory (" + gap.message + ")";
        return gap;
    }
    set_pending_file(name.data());
    auto fail = [&](int err) -> Result<std::string> {
        ::close(fd);
        ::unlink(name.data());
        clear_pending_file();
        return gap_from_errno(target, err);
    };
    if (const int err = write_all(fd, content); err != 0) return fail(err);
    if (keep_owner != nullptr &&
        (keep_owner->st_uid != ::geteuid() || keep_owner->st_gid != ::getegid()) &&
        ::fchown(fd, keep_owner->st_uid, keep_owner->st_gid) != 0) {
        return fail(errno);
    }
    // fchmod after fchown: chown clears set-ID bits.
    if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) return fail(errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(name.data());
        clear_pending_file();
        return gap_from_errno(target, err);
    }
    return std::string(name.data());
}

Result<bool> finish_rename(const std::string& tmp, const std::string& target, bool no_replace) {
    const long rc = no_replace ? ::syscall(SYS_renameat2, AT_FDCWD, tmp.c_str(), AT_FDCWD,
                                           target.c_str(), RENAME_NOREPLACE)
                               : ::rename(tmp.c_str(), target.c_str());
    const int err = errno;
    if (rc != 0) {
        ::unlink(tmp.c_str());
        clear_pending_file();
        if (no_replace && err == EEXIST)
            return refuse(target, "created by someone else while being written");
        return gap_from_errno(target, err);
    }
    clear_pending_file();
    return true;
}

Result<bool> write_new(const std::string& path, std::string_view content, bool world_readable) {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    auto tmp = filled_temporary(path, content, world_readable ? 0644 : 0644 & ~mask, nullptr);
    if (!tmp) return tmp.gap();
    // Never replaces: whatever appeared at the path meanwhile (a FIFO, a device) stays.
    return finish_rename(*tmp, path, true);
}

Result<bool> replace_regular(const std::string& path, std::string_view content,
                             const struct stat& st, std::chrono::milliseconds wait) {
    std::string target = path;
    struct stat own {};
    if (::lstat(path.c_str(), &own) == 0 && S_ISLNK(own.st_mode)) {
        // A link to a regular file: replace the file it names, in its own directory.
        std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr),
                                                         &std::free);
        if (!real) return refuse(path, "a symbolic link that cannot be resolved");
        target = real.get();
    }
    // Several names share the file, or a replacement could not get the owner back (only root
    // may give a file away): rewrite it in place, which keeps both.
    if (st.st_nlink > 1 || (st.st_uid != ::geteuid() && ::geteuid() != 0)) {
        return write_in_place(target, content, true, wait);
    }
    auto tmp = filled_temporary(target, content, st.st_mode & 07777U, &st);
    if (!tmp) return tmp.gap();
    return finish_rename(*tmp, target, false);
}

}  // namespace

Result<bool> write_output_file(const std::string& path, std::string_view content,
                               std::chrono::milliseconds reader_wait, bool world_readable) {
    if (path.empty()) return refuse(path, "an empty path");
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int err = errno;
        struct stat link {};
        if (err == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
            return refuse(path, "a symbolic link to a missing file (not followed)");
        }
        if (err != ENOENT) return gap_from_errno(path, err);
        return write_new(path, content, world_readable);
    }
    if (S_ISDIR(st.st_mode)) return refuse(path, "is a directory");
    if (S_ISBLK(st.st_mode)) return refuse(path, "is a block device");
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
        return write_in_place(path, content, false, reader_wait);
    if (S_ISSOCK(st.st_mode)) return write_socket(path, content, reader_wait);
    if (S_ISREG(st.st_mode)) return replace_regular(path, content, st, reader_wait);
    return refuse(path, "not a regular file, device, FIFO or socket");
}

bool is_stdout_file(const std::string& path) {
    struct stat out {};
    struct stat named {};
    return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &named) == 0 &&
           out.st_dev == named.st_dev && out.st_ino == named.st_ino;
}

}  // namespace rdmi
