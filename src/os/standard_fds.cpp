// hold_standard_fds: a closed stdout must not become the next socket the program opens (the
// document would then be written into a worker child's socket, and the run would report success).
#include "os/standard_fds.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace rdmi {

void hold_standard_fds() noexcept {
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        // open() returns the lowest free descriptor: this one, since the lower ones are taken.
        const int flags = (fd == STDIN_FILENO ? O_WRONLY : O_RDONLY) | O_NOCTTY;
        const int opened = ::open("/dev/null", flags);  // NOLINT(cppcoreguidelines-pro-type-vararg)
        if (opened != fd && opened >= 0) ::close(opened);
    }
}

}  // namespace rdmi
