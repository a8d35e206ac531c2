// User-space in-root path resolution.
#include "os/path_resolver.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <deque>
#include <vector>

#include "os/errno_gap.hpp"
#include "os/fs.hpp"

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

std::optional<std::string> WalkedDirs::find(std::string_view dir) const {
    const std::scoped_lock lock(mutex_);
    const auto it = canonical_.find(dir);
    if (it == canonical_.end()) return std::nullopt;
    return it->second;
}

void WalkedDirs::clear() {
    const std::scoped_lock lock(mutex_);
    canonical_.clear();
}

void WalkedDirs::remember(std::string_view dir, std::string canonical) {
    const std::scoped_lock lock(mutex_);
    if (canonical_.size() >= kCapacity) canonical_.clear();
    canonical_.insert_or_assign(std::string(dir), std::move(canonical));
}

namespace {

// A link followed whose target is not reached yet: it is the object the walk stands on once
// only `rest` components are left to do (every component its target text added is done).
struct PendingLink {
    std::string link;  ///< in-root path of the link
    uid_t owner;
    std::size_t rest;
    bool judged;  ///< the owner rule applies to it (not root's)
};

void assign_components(std::string_view path, std::vector<std::string>& out) {
    std::deque<std::string> parts;
    split_into(path, parts, false);
    out.assign(parts.begin(), parts.end());
}

}  // namespace

Result<std::string> resolve_in_root(const std::string& root, std::string_view path,
                                    bool follow_last, const LinkRule& rule, WalkedDirs* walked) {
    if (path.empty() || path.front() != '/') {
        return make_gap(GapReason::error, std::string(path) + ": not an absolute path");
    }
    std::deque<std::string> todo;
    std::vector<std::string> done;
    // For a plain path and `walked`: the walk starts at the deepest directory of the path walked
    // before, and remembers each directory of the path it walks past.
    const bool remembering = walked != nullptr && plain_absolute_path(path);
    std::size_t start = 0;  // length of the spelled directory the walk starts at
    if (remembering) {
        for (std::string_view dir = dir_name(path); dir != "/"; dir = dir_name(dir)) {
            if (auto known = walked->find(dir)) {
                assign_components(*known, done);
                start = dir.size();
                break;
            }
        }
    }
    split_into(path.substr(start), todo, false);
    // The path's own components are the tail of `todo` (a link's target goes in front).
    std::size_t own_left = todo.size();
    std::size_t spelled = start;  // length of the spelled directory of the next own component
    std::vector<PendingLink> pending;
    int links = 0;
    // Judges the links whose targets the walk now stands on (`target`: its lstat), and
    // remembers where they led.
    const auto judge = [&](const struct stat& target) -> std::optional<Gap> {
        while (!pending.empty() && pending.back().rest == todo.size()) {
            const PendingLink link = std::move(pending.back());
            pending.pop_back();
            if (link.judged && link.owner != target.st_uid) {
                const auto why =
                    foreign_link(path, link.link, link.owner, target.st_uid, passwd_below(root));
                if (!rule.on_followed_anyway) return foreign_link_gap(path, *why);
                rule.on_followed_anyway(std::string(path) + ": " + *why);
            }
            if (walked != nullptr) walked->remember(link.link, join_components(done));
        }
        return std::nullopt;
    };
    // judge() when a link's target is where the walk stands but was not examined on the way.
    const auto judge_where_standing = [&]() -> std::optional<Gap> {
        if (pending.empty() || pending.back().rest != todo.size()) return std::nullopt;
        struct stat st {};
        if (::lstat(host_path_of(root, join_components(done)).c_str(), &st) != 0)
            return gap_from_errno(path, errno);
        return judge(st);
    };
    while (!todo.empty()) {
        std::string comp = std::move(todo.front());
        const bool own = todo.size() == own_left;
        todo.pop_front();
        if (own) {
            // Every link before this component is resolved and judged: `done` is where the
            // spelled directory led.
            if (remembering && spelled > start)
                walked->remember(path.substr(0, spelled), join_components(done));
            spelled += 1 + comp.size();
            --own_left;
        }
        if (comp == "..") {
            // Like chroot: ".." at the root stays at the root.
            if (!done.empty()) done.pop_back();
        }
        if (comp == "." || comp == "..") {
            // A link's target of "." or "..": the directory it names was not examined yet.
            if (auto gap = judge_where_standing()) return *gap;
            continue;
        }
        done.push_back(std::move(comp));
        const bool last = todo.empty();
        if (last && !follow_last) break;
        if (walked != nullptr) {
            // A directory or link walked before: where it led, every link on the way judged.
            if (auto known = walked->find(join_components(done))) {
                assign_components(*known, done);
                if (auto gap = judge_where_standing()) return *gap;
                continue;
            }
        }
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
            // Root's links are followed at once; another owner's once its target's owner is
            // known, which is when the walk has done what the target text adds.
            const bool judged = rule.owner_match && st.st_uid != 0;
            if (judged || walked != nullptr)
                pending.push_back({join_components(done), st.st_uid, todo.size(), judged});
            done.pop_back();
            if (!target.empty() && target.front() == '/') done.clear();
            split_into(target, todo, true);
            // A target of "/" adds no component: it is the root, not examined yet.
            if (auto gap = judge_where_standing()) return *gap;
        } else if (!last && !S_ISDIR(st.st_mode)) {
            return gap_from_errno(path, ENOTDIR);
        } else if (auto gap = judge(st)) {
            return *gap;
        }
    }
    return join_components(done);
}

}  // namespace rdmi
