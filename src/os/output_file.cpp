// atomic_write: mkstemp in the target's directory so that rename() stays on one file system.
#include "os/atomic_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "os/errno_gap.hpp"
#include "os/fs.hpp"

namespace rdmi {

Result<bool> atomic_write(const std::string& path, std::string_view content) {
    const std::string dir(dir_name(path));
    std::string tmpl = join_path(dir, "." + std::string(base_name(path)) + ".XXXXXX");
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) return gap_from_errno(path, errno);
    auto fail = [&](int err) -> Result<bool> {
        ::close(fd);
        ::unlink(name.data());
        return gap_from_errno(path, err);
    };
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail(errno);
        done += static_cast<std::size_t>(n);
    }
    // mkstemp creates 0600; a report is no secret, give it the usual 0644 less the umask.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd, 0644 & ~mask) != 0 || ::fsync(fd) != 0) return fail(errno);
    if (::close(fd) != 0) {
        ::unlink(name.data());
        return gap_from_errno(path, errno);
    }
    if (::rename(name.data(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(name.data());
        return gap_from_errno(path, err);
    }
    return true;
}

}  // namespace rdmi
