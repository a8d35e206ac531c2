// PrivateDir: a vetted parent held open, mkdirat in it, and a removal that is safe inside a
// signal handler: no allocation, no stdio, bounded stack (links are unlinked, never followed).
#include "os/private_dir.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "core/exhaustion.hpp"
#include "os/errno_gap.hpp"
#include "os/fs.hpp"
#include "os/unique_fd.hpp"
#include "os/user_label.hpp"

namespace rdmi {
namespace {

constexpr std::size_t kDirPathMax = 4096;
// The live directory as a name in its held parent: removal never looks the parent up again.
constexpr std::size_t kDirNameMax = 64;
std::array<char, kDirNameMax> g_dir_name{};
std::atomic<int> g_parent_fd{-1};
std::atomic<bool> g_has_dir{false};

// Deeper than any bundle may be (tar_extract refuses more): the walk is bounded.
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

// Where the walk is: the directory being emptied and the identity of each one above it.
struct Walk {
    struct Level {
        dev_t dev = 0;
        ino_t ino = 0;
    };
    int cur = -1;  // the directory being emptied (the tree's root at depth 0)
    int depth = 0;
    std::array<Level, kRemoveDepth + 1> levels{};
    // Directories that could not be emptied: not entered again (else the walk would go down
    // and up forever). Full, the walk stops.
    std::array<Level, kRemoveDepth> stuck{};
    std::size_t stuck_count = 0;

    bool is_stuck(const struct stat& st) const {
        for (std::size_t i = 0; i < stuck_count; ++i) {
            if (stuck[i].dev == st.st_dev && stuck[i].ino == st.st_ino) return true;
        }
        return false;
    }
};

enum class Pass { descended, progressed, done };

// One listing of `walk.cur`: removes what it can; enters the first directory that is not empty
// (and not stuck) and says so; otherwise says whether anything was removed.
Pass list_once(Walk& walk, bool& ok) noexcept {
    std::array<char, 1024> buf{};
    bool removed_any = false;
    if (::lseek(walk.cur, 0, SEEK_SET) < 0) return Pass::done;
    while (true) {
        const long n = ::syscall(SYS_getdents64, walk.cur, buf.data(), buf.size());
        if (n <= 0) break;
        for (long off = 0; off < n;) {
            auto* entry = reinterpret_cast<LinuxDirent64*>(buf.data() + off);
            off += entry->d_reclen;
            if (is_dot(entry->d_name)) continue;
            if (::unlinkat(walk.cur, entry->d_name, 0) == 0 ||
                (errno == EISDIR && ::unlinkat(walk.cur, entry->d_name, AT_REMOVEDIR) == 0)) {
                removed_any = true;
                continue;
            }
            struct stat st {};
            if (errno != ENOTEMPTY && errno != EEXIST && errno != EACCES) {
                ok = false;
                continue;
            }
            if (walk.depth >= kRemoveDepth ||
                ::fstatat(walk.cur, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                !S_ISDIR(st.st_mode) || walk.is_stuck(st)) {
                ok = false;
                continue;
            }
            const int child =
                ::openat(walk.cur, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0) {
                ok = false;
                continue;
            }
            // A directory the extraction left without write permission is made writable.
            (void)::fchmod(child, 0700);
            ::close(walk.cur);
            walk.cur = child;
            ++walk.depth;
            walk.levels[walk.depth] = {st.st_dev, st.st_ino};
            return Pass::descended;
        }
    }
    return removed_any ? Pass::progressed : Pass::done;
}

// From `walk.cur` (emptied, or stuck) back to the directory above it, checked to be the one
// the walk came down from; false when it is not (moved meanwhile: the walk stops).
bool go_up(Walk& walk, bool emptied) noexcept {
    const Walk::Level here = walk.levels[walk.depth];
    if (!emptied) {
        if (walk.stuck_count == walk.stuck.size()) return false;
        walk.stuck[walk.stuck_count++] = here;
    }
    --walk.depth;
    const int parent = ::openat(walk.cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ::close(walk.cur);
    walk.cur = -1;
    struct stat st {};
    if (parent < 0 || ::fstat(parent, &st) != 0 || st.st_dev != walk.levels[walk.depth].dev ||
        st.st_ino != walk.levels[walk.depth].ino) {
        if (parent >= 0) ::close(parent);
        return false;
    }
    walk.cur = parent;
    return true;
}

// Empties the directory `fd` (owned: closed here), depth first, holding one descriptor however
// deep the tree (two for an instant, going down or up): the directory being emptied; the way back
// up is "..", checked to be the directory the walk came down from. (One descriptor per level
// left a run that had used up its descriptors unable to remove its own tree.)
bool empty_dir(int fd) noexcept {
    Walk walk;
    walk.cur = fd;
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        return false;
    }
    walk.levels[0] = {st.st_dev, st.st_ino};
    bool ok = true;
    for (long step = 0; step < 10'000'000; ++step) {
        // Only a directory's last pass says whether it was emptied: an entry that failed in an
        // earlier one is tried again.
        bool emptied = true;
        const Pass pass = list_once(walk, emptied);
        if (pass != Pass::done) continue;
        if (!emptied) ok = false;
        if (walk.depth == 0) break;
        if (!go_up(walk, emptied)) {
            ok = false;
            break;
        }
    }
    if (walk.cur >= 0) ::close(walk.cur);
    return ok;
}

}  // namespace

bool remove_tree(const char* path) noexcept {
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return ::unlink(path) == 0 || errno == ENOENT;
    (void)::fchmod(fd, 0700);
    const bool ok = empty_dir(fd);
    return ::rmdir(path) == 0 && ok;
}

namespace {

// remove_tree() of `name` in the directory `parent_fd`.
bool remove_tree_at(int parent_fd, const char* name) noexcept {
    const int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return ::unlinkat(parent_fd, name, 0) == 0 || errno == ENOENT;
    (void)::fchmod(fd, 0700);
    const bool ok = empty_dir(fd);
    return ::unlinkat(parent_fd, name, AT_REMOVEDIR) == 0 && ok;
}

std::string private_dir_refusal(const std::string& parent, const std::string& why) {
    return "cannot create a private directory in " + parent + ": " + why + " (set TMPDIR)";
}

// Another user who may rename or replace entries of `parent` could swap the private directory
// for a tree of their own between its extraction and its reading: the owner of `parent` always
// can, anyone may where group or others can write without the sticky bit.
std::optional<Gap> refuse_parent(const std::string& parent, const struct stat& st) {
    if (!S_ISDIR(st.st_mode))
        return gap_from_errno("cannot create a private directory in " + parent, ENOTDIR);
    if (st.st_uid != 0 && st.st_uid != ::geteuid()) {
        return Gap{GapReason::permission_denied,
                   private_dir_refusal(parent, "owned by " + user_label(st.st_uid) + ", not by " +
                                                   trusted_owners_label() +
                                                   ": its owner could replace what is put there")};
    }
    if ((st.st_mode & 022) != 0 && (st.st_mode & S_ISVTX) == 0) {
        return Gap{GapReason::permission_denied,
                   private_dir_refusal(parent, "others may write there and it has no sticky bit")};
    }
    return std::nullopt;
}

// "rdmi-probe.XXXXXX" made in the held parent (mkdirat never follows a link at the name), then
// opened without following one and checked to be ours before it is made 0700.
Result<std::string> make_private_child(int parent_fd, const std::string& parent) {
    static constexpr char kLetters[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < 100; ++attempt) {
        unsigned char random[6];
        if (::getrandom(random, sizeof random, 0) != static_cast<ssize_t>(sizeof random))
            return gap_from_errno("cannot create a private directory in " + parent, errno);
        std::string name = "rdmi-probe.";
        for (unsigned char byte : random) name += kLetters[byte % (sizeof kLetters - 1)];
        if (::mkdirat(parent_fd, name.c_str(), 0700) != 0) {
            if (errno == EEXIST) continue;
            return gap_from_errno("cannot create a private directory in " + parent, errno);
        }
        const UniqueFd made(
            ::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        struct stat st {};
        const bool seen = made.get() >= 0 && ::fstat(made.get(), &st) == 0;
        if (!seen) {
            // Out of descriptors (or memory) between the mkdirat and the open: the directory is
            // ours and empty; it is removed (rmdir removes nothing else) and the run ends as
            // exhaustion, not as a TMPDIR to change.
            const int err = errno;
            if (is_exhaustion(err)) {
                (void)::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR);
                throw ResourceExhausted("cannot create a private directory in " + parent, err);
            }
        }
        if (!seen || st.st_uid != ::geteuid() || ::fchmod(made.get(), 0700) != 0) {
            return Gap{GapReason::error,
                       private_dir_refusal(parent, "the directory " + name + " it made changed")};
        }
        return name;
    }
    return gap_from_errno("cannot create a private directory in " + parent, EEXIST);
}

}  // namespace

void remove_private_dir_now() noexcept {
    if (!g_has_dir.exchange(false)) return;
    (void)remove_tree_at(g_parent_fd.load(), g_dir_name.data());
}

Result<PrivateDir> PrivateDir::create(const std::string& parent) {
    if (parent.size() + 1 + kDirNameMax >= kDirPathMax)
        return make_gap(GapReason::error, parent + ": path too long");
    // The parent is opened once and judged by what was opened; every later step is relative to
    // it, so a link or rename at its path afterwards changes nothing.
    UniqueFd parent_fd(::open(parent.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (parent_fd.get() < 0)
        return gap_from_errno("cannot create a private directory in " + parent, errno);
    struct stat st {};
    if (::fstat(parent_fd.get(), &st) != 0)
        return gap_from_errno("cannot create a private directory in " + parent, errno);
    if (auto refused = refuse_parent(parent, st)) return *refused;
    auto name = make_private_child(parent_fd.get(), parent);
    if (!name) return name.gap();
    std::memcpy(g_dir_name.data(), name->c_str(), name->size() + 1);
    const int held = parent_fd.release();
    g_parent_fd.store(held);
    g_has_dir.store(true);
    return PrivateDir(join_path(parent, *name), held, static_cast<int>(::getpid()));
}

PrivateDir::PrivateDir(PrivateDir&& other) noexcept
    : path_(std::move(other.path_)),
      parent_fd_(std::exchange(other.parent_fd_, -1)),
      owner_(std::exchange(other.owner_, 0)) {}

PrivateDir::~PrivateDir() {
    if (owner_ == 0 || owner_ != static_cast<int>(::getpid())) return;
    if (g_has_dir.exchange(false)) (void)remove_tree_at(parent_fd_, base_name(path_).data());
    ::close(parent_fd_);
}

void RunPrivateDir::share(const PrivateDir& owned) {
    const std::scoped_lock lock(mutex_);
    shared_ = owned.path();
}

Result<std::string> RunPrivateDir::new_directory(std::string_view stem) {
    const std::scoped_lock lock(mutex_);
    if (shared_.empty() && !own_) {
        auto made = PrivateDir::create(parent_);
        if (!made) return made.gap();
        own_.emplace(std::move(made).value());
    }
    const std::string base = shared_.empty() ? own_->path() : shared_;
    const std::string path = join_path(base, std::string(stem) + "." + std::to_string(++made_));
    if (::mkdir(path.c_str(), 0700) != 0) return gap_from_errno("cannot create " + path, errno);
    return path;
}

std::string default_private_parent() {
    const char* tmp = std::getenv("TMPDIR");  // NOLINT(concurrency-mt-unsafe): read, never set
    return tmp != nullptr && *tmp == '/' ? tmp : "/tmp";
}

Result<bool> write_new_file(const std::string& dir, std::string_view name, std::string_view bytes) {
    const std::string path = join_path(dir, name);
    UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.get() < 0) return gap_from_errno("cannot create " + path, errno);
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return gap_from_errno("cannot write " + path, n < 0 ? errno : ENOSPC);
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace rdmi
