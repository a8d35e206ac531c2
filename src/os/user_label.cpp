// user_label over /etc/passwd, read directly: getpwuid_r would load the NSS modules that
// /etc/nsswitch.conf names (libnss_systemd.so.2, libnss_sss.so.2) with dlopen, searched through
// LD_LIBRARY_PATH and never vetted by the load closure, in a process that runs as root.
#include "os/user_label.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <string_view>

namespace rdmi {
namespace {

constexpr std::size_t kMaxPasswdBytes = std::size_t{8} << 20U;  // far more than any real one

// The whole of /etc/passwd when it is a regular file of at most kMaxPasswdBytes, else "".
std::string read_passwd() {
    const int fd = ::open("/etc/passwd", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return {};
    std::string text;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        static_cast<std::size_t>(st.st_size) <= kMaxPasswdBytes) {
        std::array<char, 16384> buf{};
        while (text.size() <= kMaxPasswdBytes) {
            const ssize_t got = ::read(fd, buf.data(), buf.size());
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            text.append(buf.data(), static_cast<std::size_t>(got));
        }
    }
    ::close(fd);
    return text;
}

}  // namespace

std::string user_label(uid_t uid) {
    const std::string id = "uid " + std::to_string(uid);
    const std::string text = read_passwd();
    const std::string number = std::to_string(uid);
    std::string_view rest = text;
    while (!rest.empty()) {
        const auto eol = rest.find('\n');
        const std::string_view line = rest.substr(0, eol);
        rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
        // name:password:uid:...
        const auto first = line.find(':');
        if (first == 0 || first == std::string_view::npos) continue;
        const auto second = line.find(':', first + 1);
        if (second == std::string_view::npos) continue;
        const auto third = line.find(':', second + 1);
        if (line.substr(second + 1, third == std::string_view::npos ? third : third - second - 1) !=
            number)
            continue;
        const std::string_view name = line.substr(0, first);
        if (name.front() == '+' || name.front() == '-') continue;  // compat-mode NIS entries
        return std::string(name) + " (" + id + ")";
    }
    return id;
}

std::string trusted_owners_label() {
    const uid_t self = ::geteuid();
    return self == 0 ? "root" : "root or " + user_label(self);
}

}  // namespace rdmi
