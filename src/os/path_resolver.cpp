// User-space in-root path resolution.
#include "os/path_resolver.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <deque>
#include <vector>

#include "os/errno_gap.hpp"

namespace rdmi {
namespace {

// Linux gives up after 40 links (MAXSYMLINKS); so do we, for the same reason.
constexpr int kMaxSymlinks = 40;

void split_into(std::string_view path, std::deque<std::string>& out, bool at_front) {
    std::vector<std::string> parts;
    std::size_t pos = 0;
    while (pos <= path.size()) {
        std::size_t next = path.find('/', pos);
        if (next == std::string_view::npos) next = path.size();
        if (next > pos) parts.emplace_back(path.substr(pos, next - pos));
        pos = next + 1;
    }
    out.insert(at_front ? out.begin() : out.end(), parts.begin(), parts.end());
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

}  // namespace

std::string host_path_of(const std::string& root, const std::string& in_root) {
    if (root == "/") return in_root;
    return in_root == "/" ? root : root + in_root;
}

Result<std::string> resolve_in_root(const std::string& root, std::string_view path,
                                    bool follow_last) {
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
        const std::string host = host_path_of(root, join_components(done));
        struct stat st {};
        if (::lstat(host.c_str(), &st) != 0) {
            if (errno == ENOENT && last) break;
            return gap_from_errno(path, errno);
        }
        if (S_ISLNK(st.st_mode)) {
            if (++links > kMaxSymlinks) return gap_from_errno(path, ELOOP);
            std::array<char, 4096>
                buf;  // NOLINT(cppcoreguidelines-pro-type-member-init): filled by the kernel
            const ssize_t len = ::readlink(host.c_str(), buf.data(), buf.size());
            if (len < 0) return gap_from_errno(path, errno);
            if (static_cast<std::size_t>(len) == buf.size())
                return gap_from_errno(path, ENAMETOOLONG);
            const std::string_view target(buf.data(), static_cast<std::size_t>(len));
            done.pop_back();
            if (!target.empty() && target.front() == '/') done.clear();
            split_into(target, todo, true);
        } else if (!last && !S_ISDIR(st.st_mode)) {
            return gap_from_errno(path, ENOTDIR);
        }
    }
    return join_components(done);
}

}  // namespace rdmi
