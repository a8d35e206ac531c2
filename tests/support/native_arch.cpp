#include "support/native_arch.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <iterator>

#include "elf/elf_reader.hpp"

namespace rdmi::test {

std::optional<std::string> elf_machine(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto image = parse_elf(bytes);
    if (!image.ok()) return std::nullopt;
    return image->machine_name();
}

bool have_openat2() {
    open_how how{};
    how.flags = O_PATH | O_CLOEXEC;
    how.resolve = RESOLVE_IN_ROOT;
    const long fd = ::syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how);
    if (fd < 0) return false;
    ::close(static_cast<int>(fd));
    return true;
}

bool posix_spawn_reports_exec_failure() {
    char program[] = "/nonexistent/rdmi-probe-test-program";
    char* argv[] = {program, nullptr};
    char* envp[] = {nullptr};
    pid_t pid = 0;
    if (::posix_spawn(&pid, program, nullptr, nullptr, argv, envp) != 0) return true;
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return false;
}

}  // namespace rdmi::test
