// MemoryFs: path resolution modelled on RootedFs's, over a map of canonical paths.
#include "support/memory_fs.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

#include "os/errno_gap.hpp"
#include "os/link_rule.hpp"

namespace rdmi::test {
namespace {

// The kernel's limit on links followed in one lookup (MAXSYMLINKS): more is a loop.
constexpr int kMaxLinks = 40;

// The components of `path` still to walk, the next one last (a stack), without "" and ".".
void push_components(std::vector<std::string>& todo, std::string_view path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, end - start);
        if (!part.empty() && part != ".") parts.emplace_back(part);
        start = end + 1;
    }
    todo.insert(todo.end(), std::make_move_iterator(parts.rbegin()),
                std::make_move_iterator(parts.rend()));
}

Gap not_regular(std::string_view path, FileType type) {
    return make_gap(
        GapReason::malformed,
        std::string(path) + ": is a " + std::string(to_string(type)) + ", not a regular file");
}

std::string must_be_plain(std::string_view path) {
    if (!plain_absolute_path(path))
        throw std::invalid_argument("MemoryFs: not a plain absolute path: " + std::string(path));
    return std::string(path);
}

}  // namespace

MemoryFs::MemoryFs(std::string root, bool owner_match)
    : root_(std::move(root)), owner_match_(owner_match) {
    nodes_.emplace("/", Node{});
}

MemoryFs MemoryFs::copy_of(const std::string& host_dir, bool owner_match) {
    namespace fs = std::filesystem;
    MemoryFs tree(host_dir, owner_match);
    struct stat top {};
    if (::stat(host_dir.c_str(), &top) != 0) throw std::runtime_error("stat " + host_dir);
    tree.nodes_.at("/") = Node{FileType::directory,
                               static_cast<std::uint32_t>(top.st_mode & 07777U),
                               FileOwner{top.st_uid, top.st_gid},
                               {}};
    for (const auto& entry : fs::recursive_directory_iterator(host_dir)) {
        const std::string host = entry.path().string();
        const std::string path = host.substr(host_dir.size());
        struct stat st {};
        if (::lstat(host.c_str(), &st) != 0) throw std::runtime_error("lstat " + host);
        const FileOwner owner{st.st_uid, st.st_gid};
        const auto mode = static_cast<std::uint32_t>(st.st_mode & 07777U);
        if (S_ISLNK(st.st_mode)) {
            tree.symlink(fs::read_symlink(entry.path()).string(), path, owner);
        } else if (S_ISDIR(st.st_mode)) {
            tree.mkdir(path, mode, owner);
        } else if (S_ISFIFO(st.st_mode)) {
            tree.fifo(path, mode, owner);
        } else if (S_ISREG(st.st_mode)) {
            std::ifstream in(host, std::ios::binary);
            const std::string content{std::istreambuf_iterator<char>(in), {}};
            tree.write(path, content, mode, owner);
        }
    }
    return tree;
}

MemoryFs::Node& MemoryFs::place(std::string_view path, Node node) {
    const std::string key = must_be_plain(path);
    mkdir(dir_name(key));
    auto [it, added] = nodes_.insert_or_assign(key, std::move(node));
    return it->second;
}

MemoryFs::Node& MemoryFs::existing(std::string_view path) {
    auto it = nodes_.find(path);
    if (it == nodes_.end()) throw std::invalid_argument("MemoryFs: no entry " + std::string(path));
    return it->second;
}

void MemoryFs::write(std::string_view path, std::string_view content, std::uint32_t mode,
                     FileOwner owner) {
    place(path, Node{FileType::regular, mode, owner, std::string(content)});
}

void MemoryFs::mkdir(std::string_view path, std::uint32_t mode, FileOwner owner) {
    if (path == "/") return;
    const std::string key = must_be_plain(path);
    mkdir(dir_name(key));
    auto it = nodes_.find(key);
    if (it == nodes_.end() || it->second.type != FileType::directory) {
        nodes_.insert_or_assign(key, Node{FileType::directory, mode, owner, {}});
    }
}

void MemoryFs::symlink(std::string_view target, std::string_view path, FileOwner owner) {
    place(path, Node{FileType::symlink, 0777, owner, std::string(target)});
}

void MemoryFs::fifo(std::string_view path, std::uint32_t mode, FileOwner owner) {
    place(path, Node{FileType::fifo, mode, owner, {}});
}

void MemoryFs::chmod(std::string_view path, std::uint32_t mode) {
    existing(path).mode = mode;
}

void MemoryFs::chown(std::string_view path, FileOwner owner) {
    existing(path).owner = owner;
}

void MemoryFs::remove(std::string_view path) {
    const std::string key = must_be_plain(path);
    const std::string below = key + "/";
    std::erase_if(nodes_, [&](const auto& item) {
        return item.first == key || item.first.starts_with(below);
    });
}

void MemoryFs::rename(std::string_view from, std::string_view to) {
    const std::string source = must_be_plain(from);
    const std::string dest = must_be_plain(to);
    existing(source);
    existing(dir_name(dest));
    remove(dest);
    std::map<std::string, Node, std::less<>> moved;
    for (auto it = nodes_.begin(); it != nodes_.end();) {
        if (it->first == source || it->first.starts_with(source + "/")) {
            moved.emplace(dest + it->first.substr(source.size()), std::move(it->second));
            it = nodes_.erase(it);
        } else {
            ++it;
        }
    }
    nodes_.merge(moved);
}

Result<std::string> MemoryFs::resolve(std::string_view path, bool follow_last) const {
    return resolve_counting(path, follow_last, 0);
}

Result<std::string> MemoryFs::resolve_counting(std::string_view path, bool follow_last,
                                               int links) const {
    if (path.empty() || path.front() != '/')
        return make_gap(GapReason::error, std::string(path) + ": not an absolute path");
    std::vector<std::string> todo;
    push_components(todo, path);
    std::string at = "/";
    while (!todo.empty()) {
        const std::string part = std::move(todo.back());
        todo.pop_back();
        if (part == "..") {  // never above the root
            at = std::string(dir_name(at));
            continue;
        }
        const std::string next = join_path(at, part);
        auto it = nodes_.find(next);
        if (it == nodes_.end()) return gap_from_errno(path, ENOENT);
        const Node& found = it->second;
        const bool last = todo.empty();
        if (found.type == FileType::symlink && (!last || follow_last)) {
            // The target is resolved whole, from where the link is, before the walk goes on
            // from it: so the owner rule can compare owners, and a chain is walked once.
            if (links + 1 > kMaxLinks) return gap_from_errno(path, ELOOP);
            const std::string target =
                found.data.starts_with('/') ? found.data : join_path(at, found.data);
            auto reached = resolve_counting(target, true, links + 1);
            if (!reached) {  // the same failure, said of `path`
                const Gap& why = reached.gap();
                return make_gap(why.reason, std::string(path) + why.message.substr(target.size()));
            }
            if (owner_match_) {
                if (auto why =
                        foreign_link(path, next, found.owner.uid, node(*reached).owner.uid, "")) {
                    return foreign_link_gap(path, *why);
                }
            }
            at = *reached;
            if (!last && node(at).type != FileType::directory) return gap_from_errno(path, ENOTDIR);
            continue;
        }
        if (!last && found.type != FileType::directory) return gap_from_errno(path, ENOTDIR);
        at = next;
    }
    return at;
}

Result<std::string> MemoryFs::read_file(std::string_view path, std::size_t max_bytes) const {
    auto resolved = resolve(path, true);
    if (!resolved) return resolved.gap();
    const Node& file = node(*resolved);
    if (file.type != FileType::regular) return not_regular(path, file.type);
    if (file.data.size() > max_bytes) {
        return make_gap(GapReason::malformed, std::string(path) + ": larger than " +
                                                  std::to_string(max_bytes) + " bytes");
    }
    return file.data;
}

Result<std::vector<DirEntry>> MemoryFs::list_dir(std::string_view path) const {
    auto resolved = resolve(path, true);
    if (!resolved) return resolved.gap();
    if (node(*resolved).type != FileType::directory) return gap_from_errno(path, ENOTDIR);
    const std::string prefix = join_path(*resolved, "") == "/" ? "/" : *resolved + "/";
    std::vector<DirEntry> entries;
    for (auto it = nodes_.upper_bound(prefix); it != nodes_.end(); ++it) {
        if (!it->first.starts_with(prefix)) break;
        const std::string_view name = std::string_view(it->first).substr(prefix.size());
        if (name.empty() || name.find('/') != std::string_view::npos) continue;
        entries.push_back(DirEntry{std::string(name), it->second.type});
    }
    return entries;
}

Result<FileInfo> MemoryFs::stat(std::string_view path, bool follow) const {
    auto resolved = resolve(path, follow);
    if (!resolved) return resolved.gap();
    const Node& found = node(*resolved);
    return FileInfo{found.type, found.mode, found.owner.uid, found.owner.gid,
                    found.type == FileType::directory ? 0 : found.data.size()};
}

Result<std::string> MemoryFs::read_link(std::string_view path) const {
    auto resolved = resolve(path, false);
    if (!resolved) return resolved.gap();
    const Node& found = node(*resolved);
    if (found.type != FileType::symlink)
        return make_gap(GapReason::error, std::string(path) + ": not a symbolic link");
    return found.data;
}

Result<std::string> MemoryFs::real_path(std::string_view path) const {
    return resolve(path, true);
}

Result<std::string> MemoryFs::host_path(std::string_view path) const {
    return make_gap(GapReason::error, std::string(path) + ": an in-memory file has no host path");
}

}  // namespace rdmi::test
