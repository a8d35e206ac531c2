// PrivateDir: mkdtemp plus a removal that is safe inside a signal handler: no allocation, no
// stdio, bounded stack (links are unlinked, never followed).
#include "os/private_dir.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "os/errno_gap.hpp"

namespace rdmi {
namespace {

constexpr std::size_t kDirPathMax = 4096;
std::array<char, kDirPathMax> g_dir{};
std::atomic<bool> g_has_dir{false};

// Deeper than any bundle may be (tar_extract refuses more): the recursion is bounded.
constexpr int kRemoveDepth = 64;

struct LinuxDirent64 {
    ino64_t d_ino;
    off64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[1];
};

bool is_dot(const char* name) {
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

// Empties the directory `fd` (owned: closed here), depth first.
bool empty_dir(int fd, int depth) noexcept {
    bool ok = true;
    std::array<char, 1024> buf{};
    // Entries are removed while listing; list again from the start until a pass finds none.
    for (int pass = 0; pass < 1000000; ++pass) {
        if (::lseek(fd, 0, SEEK_SET) < 0) break;
        bool removed_any = false;
        bool saw_any = false;
        while (true) {
            const long n = ::syscall(SYS_getdents64, fd, buf.data(), buf.size());
            if (n <= 0) break;
            for (long off = 0; off < n;) {
                auto* entry = reinterpret_cast<LinuxDirent64*>(buf.data() + off);
                off += entry->d_reclen;
                if (is_dot(entry->d_name)) continue;
                saw_any = true;
                if (::unlinkat(fd, entry->d_name, 0) == 0) {
                    removed_any = true;
                    continue;
                }
                if (errno != EISDIR || depth >= kRemoveDepth) {
                    ok = false;
                    continue;
                }
                const int child =
                    ::openat(fd, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (child < 0) {
                    ok = false;
                    continue;
                }
                // A directory the extraction left without write permission is made writable.
                (void)::fchmod(child, 0700);
                if (!empty_dir(child, depth + 1)) ok = false;
                if (::unlinkat(fd, entry->d_name, AT_REMOVEDIR) == 0) removed_any = true;
            }
        }
        if (!saw_any || !removed_any) break;
    }
    ::close(fd);
    return ok;
}

}  // namespace

bool remove_tree(const char* path) noexcept {
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return ::unlink(path) == 0 || errno == ENOENT;
    (void)::fchmod(fd, 0700);
    const bool ok = empty_dir(fd, 0);
    return ::rmdir(path) == 0 && ok;
}

void remove_private_dir_now() noexcept {
    if (!g_has_dir.exchange(false)) return;
    (void)remove_tree(g_dir.data());
}

Result<PrivateDir> PrivateDir::create(const std::string& parent) {
    std::string name = parent + "/rdmi-probe.XXXXXX";
    if (name.size() >= kDirPathMax) return make_gap(GapReason::error, parent + ": path too long");
    if (::mkdtemp(name.data()) == nullptr)
        return gap_from_errno("cannot create a private directory in " + parent, errno);
    // mkdtemp makes it 0700 already; say so explicitly against an odd libc.
    (void)::chmod(name.c_str(), 0700);
    std::memcpy(g_dir.data(), name.c_str(), name.size() + 1);
    g_has_dir.store(true);
    return PrivateDir(std::move(name), static_cast<int>(::getpid()));
}

PrivateDir::PrivateDir(PrivateDir&& other) noexcept
    : path_(std::move(other.path_)), owner_(std::exchange(other.owner_, 0)) {}

PrivateDir::~PrivateDir() {
    if (owner_ == 0 || owner_ != static_cast<int>(::getpid())) return;
    g_has_dir.store(false);
    (void)remove_tree(path_.c_str());
}

}  // namespace rdmi
