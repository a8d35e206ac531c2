// AppendFile over open(2)/write(2).
#include "os/append_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "os/errno_gap.hpp"
#include "os/fs.hpp"
#include "os/output_target.hpp"
#include "os/unique_fd.hpp"
#include "os/user_label.hpp"

namespace rdmi {

Result<AppendFile> AppendFile::open(const std::string& path, bool truncate) {
    // The directory is held, so that the rule on hard links below judges the directory the file
    // was opened in, not one looked up again.
    // A link among its directories is followed only when root or the effective user owns it.
    auto opened = open_vetted_dir(AT_FDCWD, std::string(dir_name(path)), path);
    if (!opened) return opened.gap();
    const UniqueFd dir(*opened);
    // O_NONBLOCK: a FIFO at the path must not block the open; it is refused below anyway.
    const int flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
    const int fd = ::openat(dir.get(), std::string(base_name(path)).c_str(), flags, 0644);
    if (fd < 0) return gap_from_errno(path, errno);
    AppendFile file(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0) return gap_from_errno(path, errno);
    if (!S_ISREG(st.st_mode)) return make_gap(GapReason::malformed, path + ": not a regular file");
    // Another user's file with several names may have been linked here to be overwritten (the
    // same rule as --output): only the open file's own fstat decides, never the path again.
    if (st.st_nlink > 1 && st.st_uid != ::geteuid()) {
        return make_gap(GapReason::permission_denied,
                        path + ": a file with " + std::to_string(st.st_nlink) +
                            " hard links owned by " + user_label(st.st_uid) +
                            " (never written in place); not written");
    }
    // So may a file of our own where another user may create names (/tmp): with
    // fs.protected_hardlinks off, anyone can link root's /etc/shadow there.
    if (st.st_nlink > 1 && dir_open_to_others(dir.get())) {
        return make_gap(GapReason::permission_denied,
                        path + ": a file with " + std::to_string(st.st_nlink) +
                            " hard links in a directory others may create names in (never "
                            "written in place); not written");
    }
    if (truncate && ::ftruncate(fd, 0) != 0) return gap_from_errno(path, errno);
    const int status = ::fcntl(fd, F_GETFL);
    if (status >= 0) (void)::fcntl(fd, F_SETFL, status & ~O_NONBLOCK);
    return file;
}

AppendFile& AppendFile::operator=(AppendFile&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

AppendFile::~AppendFile() {
    if (fd_ >= 0) ::close(fd_);
}

bool AppendFile::write_line(std::string_view line) const {
    std::string out(line);
    out += '\n';
    ssize_t written = -1;
    do {
        written = ::write(fd_, out.data(), out.size());
    } while (written < 0 && errno == EINTR);
    return written == static_cast<ssize_t>(out.size());
}

}  // namespace rdmi
