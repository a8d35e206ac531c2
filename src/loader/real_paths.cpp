// RealPaths: glibc's realpath(3) calls readlink on every component of every path it is given,
// which made the trust checks' path walks most of their system calls (a library under /lib,
// a link to usr/lib on merged-/usr systems, cost six readlinks). Here each directory is walked
// once: the rules are realpath's (links before "..", a link target relative to the directory
// holding the link, an absolute one from "/", ENOTDIR for a file where a directory must be).
#include "loader/real_paths.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>

namespace rdmi {
namespace {

// More remembered paths than a run's closure could ask for; past it nothing more is kept.
constexpr std::size_t kMaxRemembered = 4096;

// Each component is a stack frame here, and a link's target is walked inside the frame of the
// component that named it: 40 links of 2,000 "." components each (a target of 4 KiB) nest
// 80,000 frames, past any stack. realpath(3) walks any path in a loop: deeper than this, the
// path is left to it.
constexpr int kMaxDepth = 256;
// Not an errno: the answer that makes resolve() leave the path to realpath(3).
constexpr int kTooDeep = -1;
thread_local int t_depth = 0;

// One frame of a walk, counted against kMaxDepth.
class Frame {
  public:
    Frame() { ++t_depth; }
    ~Frame() { --t_depth; }
    Frame(const Frame&) = delete;
    Frame& operator=(const Frame&) = delete;
    [[nodiscard]] static bool too_deep() { return t_depth > kMaxDepth; }
};

std::string_view without_trailing_slashes(std::string_view text) {
    while (text.size() > 1 && text.back() == '/') text.remove_suffix(1);
    return text;
}

// "/a/b//c" → "/a/b" and "c"; "/c" → "/" and "c". `text` is absolute, without trailing slashes.
std::pair<std::string_view, std::string_view> split_last(std::string_view text) {
    const auto slash = text.rfind('/');
    std::string_view parent = text.substr(0, slash);
    while (!parent.empty() && parent.back() == '/') parent.remove_suffix(1);
    if (parent.empty()) parent = "/";
    return {parent, text.substr(slash + 1)};
}

std::string join(const std::string& dir, std::string_view name) {
    std::string out = dir;
    if (out.back() != '/') out += '/';
    out += name;
    return out;
}

std::string parent_of(const std::string& canonical) {
    const auto slash = canonical.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : canonical.substr(0, slash);
}

// A path that names a directory by its spelling: a trailing slash, or "." or ".." last.
bool names_a_directory(std::string_view text) {
    if (text.size() > 1 && text.back() == '/') return true;
    const std::string_view last = split_last(without_trailing_slashes(text)).second;
    return last == "." || last == "..";
}

// readlinkat(dir, name): 0 and the target, or the errno (EINVAL: not a link).
int read_link(int dir, const std::string& name, std::string& target) {
    std::array<char, PATH_MAX> buffer{};
    const ssize_t n = ::readlinkat(dir, name.c_str(), buffer.data(), buffer.size());
    if (n < 0) return errno;
    if (static_cast<std::size_t>(n) == buffer.size()) return ENAMETOOLONG;
    target.assign(buffer.data(), static_cast<std::size_t>(n));
    return 0;
}

// Where a link's target leads from the directory that holds the link.
std::string target_path(const std::string& dir, const std::string& target) {
    return target.front() == '/' ? target : join(dir, target);
}

std::size_t open_dirs_allowed() {
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
        return RealPaths::kOpenDirs;
    }
    return std::min<std::size_t>(RealPaths::kOpenDirs, limit.rlim_cur / 8);
}

}  // namespace

RealPaths::Answer RealPaths::libc(const std::string& path) {
    RealPaths::Answer answer;
    std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
    if (real) {
        answer.path = real.get();
    } else {
        answer.err = errno;
    }
    return answer;
}

RealPaths::Answer RealPaths::resolve(const std::string& path) {
    if (path.empty()) return Answer{ENOENT, {}};
    {
        const std::scoped_lock lock(mutex_);
        if (!limit_known_) {
            max_open_dirs_ = open_dirs_allowed();
            limit_known_ = true;
        }
    }
    // Under a descriptor limit too low to hold directories, realpath(3), which needs none, so
    // that the resolver's own descriptors never turn an answer into exhaustion.
    if (path.front() != '/' || max_open_dirs_ < kLowLimitDirs) return libc(path);
    int links = 0;
    Answer answer = resolve_file(path, links);
    if (answer.err == EMFILE || answer.err == ENFILE || answer.err == kTooDeep) return libc(path);
    return answer;
}

// Any absolute path: one that names a directory by its spelling is resolved as one; otherwise
// the directory above it, then its last component with one readlinkat.
RealPaths::Answer RealPaths::resolve_file(std::string_view text, int& links) {
    if (names_a_directory(text) || without_trailing_slashes(text) == "/") {
        const DirAnswer dir = resolve_dir(without_trailing_slashes(text), links);
        if (dir.err != 0) return Answer{dir.err, {}};
        return Answer{0, dir.dir->canonical};
    }
    const auto [parent_text, name] = split_last(text);
    const DirAnswer parent = resolve_dir(parent_text, links);
    if (parent.err != 0) return Answer{parent.err, {}};
    const auto fd = descriptor(*parent.dir);
    if (fd->get() < 0) return Answer{errno, {}};
    std::string target;
    const int err = read_link(fd->get(), std::string(name), target);
    if (err == EINVAL) return Answer{0, join(parent.dir->canonical, name)};  // not a link
    if (err != 0) return Answer{err, {}};
    if (++links > kMaxLinks) return Answer{ELOOP, {}};
    return resolve_file(target_path(parent.dir->canonical, target), links);
}

// `text`: absolute, without trailing slashes.
RealPaths::DirAnswer RealPaths::resolve_dir(std::string_view text, int& links) {
    const Frame frame;
    if (Frame::too_deep()) return DirAnswer{kTooDeep, nullptr};
    if (const DirRef known = find(text)) {
        links += known->links;
        if (links > kMaxLinks) return DirAnswer{ELOOP, nullptr};
        return DirAnswer{0, known};
    }
    if (text == "/") return root();
    const int before = links;
    const auto [parent_text, name] = split_last(text);
    DirAnswer parent = resolve_dir(parent_text, links);
    if (parent.err != 0) return parent;
    DirAnswer here;
    if (name.empty() || name == ".") {
        here = parent;
    } else if (name == "..") {
        // The parent is resolved already, links and all: its canonical path's parent has none.
        here = resolve_dir(parent_of(parent.dir->canonical), links);
    } else {
        here = step_into(parent.dir, name, links);
    }
    if (here.err != 0) return here;
    Dir remembered = *here.dir;
    remembered.links = links - before;
    return DirAnswer{0, remember(text, std::move(remembered))};
}

// One component below `parent` that must be a directory, or a link that leads to one.
RealPaths::DirAnswer RealPaths::step_into(const DirRef& parent, std::string_view name, int& links) {
    const auto fd = descriptor(*parent);
    if (fd->get() < 0) return DirAnswer{errno, nullptr};
    const std::string component(name);
    // O_DIRECTORY with O_NOFOLLOW opens a real directory only; anything else (a link, a file)
    // is ENOTDIR, and readlinkat tells the two apart: one system call for a directory.
    const int opened =
        ::openat(fd->get(), component.c_str(), O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
    if (opened >= 0) {
        auto child = std::make_shared<UniqueFd>(opened);
        Dir dir{join(parent->canonical, name), nullptr, 0};
        {
            const std::scoped_lock lock(mutex_);
            if (open_dirs_ < max_open_dirs_) {
                ++open_dirs_;
                dir.fd = std::move(child);
            }
        }
        // The directory's canonical path is its own name too: a link into it, or a "..", that
        // arrives by that path finds it.
        const std::string canonical = dir.canonical;
        return DirAnswer{0, remember(canonical, std::move(dir))};
    }
    if (errno != ENOTDIR && errno != ELOOP) return DirAnswer{errno, nullptr};
    std::string target;
    if (const int err = read_link(fd->get(), component, target); err != 0) {
        return DirAnswer{err == EINVAL ? ENOTDIR : err, nullptr};  // EINVAL: not a link
    }
    if (++links > kMaxLinks) return DirAnswer{ELOOP, nullptr};
    return resolve_dir(without_trailing_slashes(target_path(parent->canonical, target)), links);
}

RealPaths::DirAnswer RealPaths::root() {
    if (const DirRef known = find("/")) return DirAnswer{0, known};
    const int opened = ::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (opened < 0) return DirAnswer{errno, nullptr};
    auto fd = std::make_shared<UniqueFd>(opened);
    {
        const std::scoped_lock lock(mutex_);
        ++open_dirs_;
    }
    return DirAnswer{0, remember("/", Dir{"/", std::move(fd), 0})};
}

RealPaths::DirRef RealPaths::find(std::string_view text) {
    const std::scoped_lock lock(mutex_);
    if (auto it = dirs_.find(text); it != dirs_.end()) return it->second;
    return nullptr;
}

RealPaths::DirRef RealPaths::remember(std::string_view text, Dir dir) {
    auto made = std::make_shared<const Dir>(std::move(dir));
    const std::scoped_lock lock(mutex_);
    if (auto it = dirs_.find(text); it != dirs_.end()) return it->second;  // another thread's
    if (dirs_.size() < kMaxRemembered) dirs_.emplace(std::string(text), made);
    return made;
}

std::shared_ptr<const UniqueFd> RealPaths::descriptor(const Dir& dir) {
    if (dir.fd) return dir.fd;
    const int opened = ::open(dir.canonical.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    const int err = errno;
    auto fd = std::make_shared<UniqueFd>(opened);
    errno = err;  // for the caller, when the open failed
    return fd;
}

}  // namespace rdmi
