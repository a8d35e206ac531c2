// build_tree: every recorded path is walked again one component at a time, so that each link on
// the way is stored as a link and the bytes live once, at the real path (sysfs reaches one
// device's files through /sys/class/... and /sys/bus/... links).
#include "bundle/bundle_tree.hpp"

#include <vector>

namespace rdmi::bundle {
namespace {

// As many link hops as the kernel follows (MAXSYMLINKS).
constexpr int kMaxHops = 40;

std::vector<std::string_view> components(std::string_view path) {
    std::vector<std::string_view> out;
    while (!path.empty()) {
        const auto start = path.find_first_not_of('/');
        if (start == std::string_view::npos) break;
        path.remove_prefix(start);
        const auto end = path.find('/');
        out.push_back(path.substr(0, end));
        path.remove_prefix(end == std::string_view::npos ? path.size() : end);
    }
    return out;
}

class Builder {
  public:
    Builder(const Fs& fs, const Caps& caps, Tree& tree) : fs_(fs), caps_(caps), tree_(tree) {}

    // The real in-root path of `path`, storing each directory and link met on the way (the
    // final component's link too when `follow_last`). nullopt when it does not resolve.
    std::optional<std::string> resolve(std::string_view path, bool follow_last) {
        std::vector<std::string> todo;
        for (auto c : components(path)) todo.emplace_back(c);
        std::reverse(todo.begin(), todo.end());
        std::string at = "/";
        int hops = 0;
        while (!todo.empty()) {
            std::string name = std::move(todo.back());
            todo.pop_back();
            if (name == ".") continue;
            if (name == "..") {
                at = std::string(dir_name(at));
                continue;
            }
            const std::string next = join_path(at, name);
            const auto info = lstat(next);
            if (!info) return std::nullopt;
            if (info->type != FileType::symlink || (todo.empty() && !follow_last)) {
                if (info->type == FileType::directory) add_dir(next, *info);
                at = next;
                continue;
            }
            if (++hops > kMaxHops) return std::nullopt;
            // A link the view does not follow (the owner rule, os/link_rule.hpp) is not followed
            // here either: its target would be stored, read again by its own path.
            if (info->uid != 0) {
                if (auto real = fs_.real_path(next);
                    !real && real.gap().reason == GapReason::untrusted)
                    return std::nullopt;
            }
            auto text = add_link(next, *info);
            if (!text) return std::nullopt;
            // In-root semantics: an absolute target starts at the root, ".." stops there.
            if (!text->empty() && text->front() == '/') at = "/";
            auto parts = components(*text);
            for (auto it = parts.rbegin(); it != parts.rend(); ++it) todo.emplace_back(*it);
        }
        return at;
    }

    // lstat through the file system, once per path: thousands of recorded paths share their
    // leading components (/sys/devices/pci0000:00/...).
    std::optional<FileInfo> lstat(const std::string& path) {
        if (auto it = lstat_cache_.find(path); it != lstat_cache_.end()) return it->second;
        auto info = fs_.stat(path, false);
        std::optional<FileInfo> got;
        if (info) got = *info;
        lstat_cache_.emplace(path, got);
        return got;
    }

    void add_dir(const std::string& path, const FileInfo& info) {
        if (path == "/" || tree_.entries.count(path) != 0) return;
        Entry e;
        e.path = path;
        e.type = FileType::directory;
        e.info = info;
        tree_.entries.emplace(path, std::move(e));
    }

    std::optional<std::string> add_link(const std::string& path, const FileInfo& info) {
        if (auto it = tree_.entries.find(path); it != tree_.entries.end()) return it->second.target;
        auto text = fs_.read_link(path);
        if (!text) return std::nullopt;
        Entry e;
        e.path = path;
        e.type = FileType::symlink;
        e.info = info;
        const std::string target = normal_path(
            !text->empty() && text->front() == '/' ? *text : join_path(dir_name(path), *text));
        // Stored relative and inside the root whatever the original said: an extracted bundle
        // then points nowhere outside itself, for any tool.
        e.target = relative_target(path, target);
        tree_.entries.emplace(path, e);
        return e.target;
    }

    // A regular file at real path `real`: `bytes` when known, else read again (mapped files)
    // or left empty (placeholder).
    void add_file(const std::string& real, const FileInfo& info, const std::string* bytes,
                  bool read_again) {
        auto it = tree_.entries.find(real);
        if (it != tree_.entries.end() && it->second.content == Content::captured) return;
        Entry e;
        e.path = real;
        e.type = FileType::regular;
        e.info = info;
        e.content = Content::placeholder;
        if (bytes != nullptr || read_again) {
            std::string got;
            bool have = false;
            const std::string too_big =
                "larger than the per-file cap of " + std::to_string(caps_.file_bytes) + " bytes";
            if (bytes != nullptr) {
                got = *bytes;
                have = true;
            } else if (info.size > caps_.file_bytes) {
                skip(real, too_big, "file_bytes");
            } else if (auto again = fs_.read_file(real, caps_.file_bytes)) {
                got = *again;
                have = true;
            } else {
                skip(real, again.gap().message);
            }
            if (have && got.size() > caps_.file_bytes) {
                skip(real, too_big, "file_bytes");
                have = false;
            } else if (have && tree_.content_bytes + got.size() > caps_.total_bytes) {
                skip(real,
                     "the bundle's total cap of " + std::to_string(caps_.total_bytes) +
                         " bytes was reached",
                     "total_bytes");
                have = false;
            }
            if (have) {
                tree_.content_bytes += got.size();
                e.bytes = std::move(got);
                e.content = Content::captured;
            }
        }
        if (it != tree_.entries.end()) {
            it->second = std::move(e);
        } else {
            tree_.entries.emplace(real, std::move(e));
        }
    }

    void skip(const std::string& path, std::string reason, std::string limit = {}) {
        for (const auto& s : tree_.skipped) {
            if (s.path == path) return;
        }
        tree_.skipped.push_back({path, std::move(reason), std::move(limit)});
    }

    // An object the probe named (the final component after links): stored by its type.
    void add_object(const std::string& real, const PathAccess* access, bool listed_only) {
        if (real == "/") return;
        auto info = lstat(real);
        if (!info) return;
        switch (info->type) {
            case FileType::regular: {
                const bool read = access != nullptr && (access->ops & PathAccess::read) != 0U;
                const bool mapped = access != nullptr && (access->ops & PathAccess::mapped) != 0U;
                const std::string* bytes = read && access->content ? &*access->content : nullptr;
                add_file(real, *info, bytes, !listed_only && (mapped || (read && !bytes)));
                break;
            }
            case FileType::directory:
                add_dir(real, *info);
                break;
            case FileType::symlink:
                (void)add_link(real, *info);
                break;
            default:
                // A device node, FIFO or socket is stored as an empty regular file; the
                // manifest keeps its type, owner and mode, and the replay's stat says them.
                add_file(real, *info, nullptr, false);
                break;
        }
    }

  private:
    const Fs& fs_;
    const Caps& caps_;
    Tree& tree_;
    std::map<std::string, std::optional<FileInfo>> lstat_cache_;
};

}  // namespace

std::string_view type_name(FileType type) {
    switch (type) {
        case FileType::regular:
            return "regular";
        case FileType::directory:
            return "directory";
        case FileType::symlink:
            return "symlink";
        case FileType::fifo:
            return "fifo";
        case FileType::socket:
            return "socket";
        case FileType::char_device:
            return "char_device";
        case FileType::block_device:
            return "block_device";
        default:
            return "other";
    }
}

std::string_view operation_name(std::uint32_t op) {
    switch (op) {
        case PathAccess::read:
            return "read";
        case PathAccess::mapped:
            return "map";
        case PathAccess::listed:
            return "list";
        case PathAccess::stat_follow:
            return "stat";
        case PathAccess::stat_nofollow:
            return "lstat";
        case PathAccess::link_read:
            return "readlink";
        case PathAccess::resolved:
            return "realpath";
        default:
            return "other";
    }
}

std::string normal_path(std::string_view path) {
    std::vector<std::string_view> out;
    for (auto c : components(path)) {
        if (c == ".") continue;
        if (c == "..") {
            if (!out.empty()) out.pop_back();
            continue;
        }
        out.push_back(c);
    }
    std::string joined;
    for (auto c : out) {
        joined += '/';
        joined += c;
    }
    return joined.empty() ? "/" : joined;
}

std::string relative_target(std::string_view link, std::string_view target) {
    const auto from = components(dir_name(link));
    const auto to = components(target);
    std::size_t common = 0;
    while (common < from.size() && common < to.size() && from[common] == to[common]) ++common;
    std::string out;
    for (std::size_t i = common; i < from.size(); ++i) out += out.empty() ? ".." : "/..";
    for (std::size_t i = common; i < to.size(); ++i) {
        if (!out.empty()) out += '/';
        out += to[i];
    }
    return out.empty() ? "." : out;
}

Tree build_tree(const Fs& fs, const std::map<std::string, PathAccess>& recorded, const Caps& caps) {
    Tree tree;
    Builder builder(fs, caps, tree);
    // Read contents first: the total cap then keeps what the probe read over what it mapped.
    for (int pass = 0; pass < 2; ++pass) {
        for (const auto& [path, access] : recorded) {
            const bool has_read = access.content.has_value();
            if ((pass == 0) != has_read) continue;
            const bool follow =
                (access.ops & ~(PathAccess::stat_nofollow | PathAccess::link_read)) != 0U;
            auto real = builder.resolve(path, follow);
            if (real) builder.add_object(*real, &access, false);
            if (real && (access.ops & PathAccess::listed) != 0U) {
                for (const auto& entry : access.entries) {
                    const std::string child = join_path(*real, entry.name);
                    if (tree.entries.count(child) == 0 && recorded.count(child) == 0)
                        builder.add_object(child, nullptr, true);
                }
            }
            for (const auto& [op, gap] : access.gaps) {
                if (gap.reason == GapReason::not_found) continue;
                // A relative path (a relative PKG_CONFIG_PATH entry) was never read: the file
                // system refuses it, and a replay refuses it the same way from the captured
                // environment. It names no in-root path for the manifest to record.
                if (path.empty() || path.front() != '/') continue;
                tree.failures.push_back({path, std::string(operation_name(op)), gap});
            }
        }
    }
    return tree;
}

}  // namespace rdmi::bundle
