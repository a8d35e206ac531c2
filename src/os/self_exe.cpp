// /proc/self/exe, read once per call.
#include "os/self_exe.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace rdmi {

Result<std::string> self_executable_path() {
    std::array<char, 4096> buf{};
    const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size());
    if (n < 0) {
        return make_gap(errno == EACCES ? GapReason::permission_denied : GapReason::not_found,
                        std::string("/proc/self/exe: ") + std::strerror(errno));
    }
    if (static_cast<std::size_t>(n) >= buf.size())
        return make_gap(GapReason::error, "/proc/self/exe: path too long");
    return std::string(buf.data(), static_cast<std::size_t>(n));
}

}  // namespace rdmi
