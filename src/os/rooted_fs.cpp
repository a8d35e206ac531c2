// RootedFs: path resolution inside a root, bounded non-blocking reads.
#include "os/rooted_fs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <deque>
#include <memory>

#include "os/errno_gap.hpp"

namespace rdmi {
namespace {

// Linux gives up after 40 links (MAXSYMLINKS); so do we, for the same reason.
constexpr int kMaxSymlinks = 40;

FileType file_type_of(mode_t mode) {
    if (S_ISREG(mode)) return FileType::regular;
    if (S_ISDIR(mode)) return FileType::directory;
    if (S_ISLNK(mode)) return FileType::symlink;
    if (S_ISFIFO(mode)) return FileType::fifo;
    if (S_ISSOCK(mode)) return FileType::socket;
    if (S_ISCHR(mode)) return FileType::char_device;
    if (S_ISBLK(mode)) return FileType::block_device;
    return FileType::other;
}

FileType file_type_of_dirent(unsigned char d_type) {
    switch (d_type) {
        case DT_REG:
            return FileType::regular;
        case DT_DIR:
            return FileType::directory;
        case DT_LNK:
            return FileType::symlink;
        case DT_FIFO:
            return FileType::fifo;
        case DT_SOCK:
            return FileType::socket;
        case DT_CHR:
            return FileType::char_device;
        case DT_BLK:
            return FileType::block_device;
        default:
            return FileType::other;
    }
}

void split_into(std::string_view path, std::deque<std::string>& out, bool at_front) {
    std::vector<std::string> parts;
    std::size_t pos = 0;
    while (pos <= path.size()) {
        std::size_t next = path.find('/', pos);
        if (next == std::string_view::npos) next = path.size();
        if (next > pos) parts.emplace_back(path.substr(pos, next - pos));
        pos = next + 1;
    }
    if (at_front) {
        out.insert(out.begin(), parts.begin(), parts.end());
    } else {
        out.insert(out.end(), parts.begin(), parts.end());
    }
}

std::string join_components(const std::vector<std::string>& parts) {
    if (parts.empty()) return "/";
    std::string out;
    for (const auto& part : parts) {
        out += '/';
        out += part;
    }
    return out;
}

Result<std::string> readlink_host(const std::string& host, std::string_view shown) {
    std::array<char, 4096> buf{};
    ssize_t len = ::readlink(host.c_str(), buf.data(), buf.size());
    if (len < 0) return gap_from_errno(shown, errno);
    if (static_cast<std::size_t>(len) == buf.size()) {
        return make_gap(GapReason::malformed,
                        std::string(shown) + ": symbolic link target too long");
    }
    return std::string(buf.data(), static_cast<std::size_t>(len));
}

struct DirCloser {
    void operator()(DIR* dir) const { ::closedir(dir); }
};

}  // namespace

std::string_view to_string(FileType type) {
    switch (type) {
        case FileType::regular:
            return "regular file";
        case FileType::directory:
            return "directory";
        case FileType::symlink:
            return "symbolic link";
        case FileType::fifo:
            return "FIFO";
        case FileType::socket:
            return "socket";
        case FileType::char_device:
            return "character device";
        case FileType::block_device:
            return "block device";
        case FileType::other:
            return "special file";
    }
    return "special file";
}

std::string join_path(std::string_view base, std::string_view name) {
    std::string out(base);
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    while (!name.empty() && name.front() == '/') name.remove_prefix(1);
    if (name.empty()) return out;
    if (out.empty() || out.back() != '/') out += '/';
    out += name;
    return out;
}

std::string_view base_name(std::string_view path) {
    while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view dir_name(std::string_view path) {
    while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    auto slash = path.rfind('/');
    if (slash == std::string_view::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

Result<RootedFs> RootedFs::open(const std::string& root) {
    if (root.empty()) return make_gap(GapReason::error, "--root: empty path");
    std::unique_ptr<char, decltype(&std::free)> canonical(::realpath(root.c_str(), nullptr),
                                                          &std::free);
    if (!canonical) return gap_from_errno(root, errno);
    struct stat st {};
    if (::stat(canonical.get(), &st) != 0) return gap_from_errno(root, errno);
    if (!S_ISDIR(st.st_mode)) return make_gap(GapReason::error, root + ": not a directory");
    return RootedFs(canonical.get());
}

std::string RootedFs::to_host(const std::string& in_root) const {
    if (is_live()) return in_root;
    return in_root == "/" ? root_ : root_ + in_root;
}

Result<std::string> RootedFs::resolve(std::string_view path, bool follow_last) const {
    if (path.empty() || path.front() != '/') {
        return make_gap(GapReason::error, std::string(path) + ": not an absolute path");
    }
    std::deque<std::string> todo;
    split_into(path, todo, false);
    std::vector<std::string> done;
    int links = 0;
    while (!todo.empty()) {
        std::string comp = std::move(todo.front());
        todo.pop_front();
        if (comp == ".") continue;
        if (comp == "..") {
            // Like chroot: ".." at the root stays at the root.
            if (!done.empty()) done.pop_back();
            continue;
        }
        done.push_back(std::move(comp));
        const bool last = todo.empty();
        if (last && !follow_last) break;
        const std::string host = to_host(join_components(done));
        struct stat st {};
        if (::lstat(host.c_str(), &st) != 0) {
            if (errno == ENOENT && last) break;  // the caller's own call reports absence
            return gap_from_errno(path, errno);
        }
        if (S_ISLNK(st.st_mode)) {
            if (++links > kMaxSymlinks) {
                return make_gap(GapReason::error, std::string(path) + ": symbolic link loop");
            }
            auto target = readlink_host(host, path);
            if (!target) return target.gap();
            done.pop_back();
            if (!target->empty() && target->front() == '/') done.clear();
            split_into(*target, todo, true);
        } else if (!last && !S_ISDIR(st.st_mode)) {
            return gap_from_errno(path, ENOTDIR);
        }
    }
    return join_components(done);
}

Result<std::string> RootedFs::host_path(std::string_view path) const {
    if (is_live()) {
        if (path.empty() || path.front() != '/') {
            return make_gap(GapReason::error, std::string(path) + ": not an absolute path");
        }
        return std::string(path);
    }
    auto resolved = resolve(path, true);
    if (!resolved) return resolved.gap();
    return to_host(*resolved);
}

Result<std::string> RootedFs::read_file(std::string_view path, std::size_t max_bytes) const {
    auto host = host_path(path);
    if (!host) return host.gap();
    int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
    // Under a root every link was already resolved inside it; refuse one planted since.
    if (!is_live()) flags |= O_NOFOLLOW;
    const int fd = ::open(host->c_str(), flags);
    if (fd < 0) return gap_from_errno(path, errno);
    struct FdCloser {
        int fd;
        ~FdCloser() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) return gap_from_errno(path, errno);
    if (!S_ISREG(st.st_mode)) {
        return make_gap(GapReason::malformed, std::string(path) + ": is a " +
                                                  std::string(to_string(file_type_of(st.st_mode))) +
                                                  ", not a regular file");
    }
    std::string data;
    // sysfs and procfs report sizes that are not the content length; read to EOF, bounded.
    data.reserve(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), max_bytes) + 1);
    std::array<char, 65536> chunk{};
    while (true) {
        const ssize_t got = ::read(fd, chunk.data(), chunk.size());
        if (got < 0) {
            if (errno == EINTR) continue;
            return gap_from_errno(path, errno);
        }
        if (got == 0) break;
        if (data.size() + static_cast<std::size_t>(got) > max_bytes) {
            return make_gap(GapReason::malformed, std::string(path) + ": larger than " +
                                                      std::to_string(max_bytes) + " bytes");
        }
        data.append(chunk.data(), static_cast<std::size_t>(got));
    }
    return data;
}

Result<std::vector<DirEntry>> RootedFs::list_dir(std::string_view path) const {
    auto host = host_path(path);
    if (!host) return host.gap();
    std::unique_ptr<DIR, DirCloser> dir(::opendir(host->c_str()));
    if (!dir) return gap_from_errno(path, errno);
    std::vector<DirEntry> entries;
    errno = 0;
    while (const dirent* ent = ::readdir(dir.get())) {
        std::string_view name = ent->d_name;
        if (name == "." || name == "..") continue;
        FileType type = file_type_of_dirent(ent->d_type);
        if (ent->d_type == DT_UNKNOWN) {
            struct stat st {};
            if (::fstatat(::dirfd(dir.get()), ent->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
                type = file_type_of(st.st_mode);
            }
        }
        entries.push_back(DirEntry{std::string(name), type});
    }
    if (errno != 0) return gap_from_errno(path, errno);
    std::sort(entries.begin(), entries.end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    return entries;
}

Result<FileInfo> RootedFs::stat(std::string_view path, bool follow) const {
    std::string host;
    if (is_live()) {
        auto checked = host_path(path);
        if (!checked) return checked.gap();
        host = *checked;
    } else {
        auto resolved = resolve(path, follow);
        if (!resolved) return resolved.gap();
        host = to_host(*resolved);
    }
    struct stat st {};
    const int rc = (follow && is_live()) ? ::stat(host.c_str(), &st) : ::lstat(host.c_str(), &st);
    if (rc != 0) return gap_from_errno(path, errno);
    return FileInfo{file_type_of(st.st_mode), static_cast<std::uint32_t>(st.st_mode & 07777U),
                    st.st_uid, st.st_gid, static_cast<std::uint64_t>(st.st_size)};
}

Result<std::string> RootedFs::read_link(std::string_view path) const {
    if (is_live()) return readlink_host(std::string(path), path);
    auto resolved = resolve(path, false);
    if (!resolved) return resolved.gap();
    return readlink_host(to_host(*resolved), path);
}

Result<std::string> RootedFs::real_path(std::string_view path) const {
    if (is_live()) {
        std::unique_ptr<char, decltype(&std::free)> canonical(
            ::realpath(std::string(path).c_str(), nullptr), &std::free);
        if (!canonical) return gap_from_errno(path, errno);
        return std::string(canonical.get());
    }
    auto resolved = resolve(path, true);
    if (!resolved) return resolved.gap();
    struct stat st {};
    if (::lstat(to_host(*resolved).c_str(), &st) != 0) return gap_from_errno(path, errno);
    return resolved;
}

}  // namespace rdmi
