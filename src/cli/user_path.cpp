// user_path(): the working directory in front, `..` left to the kernel; read_user_file().
#include "cli/user_path.hpp"

#include <filesystem>
#include <system_error>

#include "os/rooted_fs.hpp"
#include "text/text.hpp"

namespace rdmi::cli {

std::string user_path(const std::string& path) {
    if (path.empty() || path.front() == '/') return path;
    std::error_code ec;
    const std::string cwd = std::filesystem::current_path(ec).string();
    if (ec || cwd.empty()) return path;
    std::string out = cwd == "/" ? "" : cwd;
    std::size_t pos = 0;
    while (pos <= path.size()) {
        auto end = path.find('/', pos);
        if (end == std::string::npos) end = path.size();
        const std::string part = path.substr(pos, end - pos);
        if (!part.empty() && part != ".") out += "/" + part;
        pos = end + 1;
    }
    // A trailing slash asks for a directory: keep it, so "app/" still fails on a file.
    if (path.back() == '/') out += "/";
    return out.empty() ? "/" : out;
}

Result<std::string> read_user_file(std::string_view option, const std::string& full_path,
                                   std::size_t max_bytes, const LinkRule& links) {
    auto fs = RootedFs::open("/", RootedFs::Resolution::kernel, true, links);
    if (!fs) return fs.gap();
    auto bytes = fs->read_file(full_path, max_bytes);
    if (!bytes) return Gap{bytes.gap().reason, std::string(option) + " " + bytes.gap().message};
    return bytes;
}

namespace {

/// Largest --allow-experimental @FILE read.
constexpr std::size_t kMaxAllowListBytes = std::size_t{4} << 20U;

void add_names(std::string_view text, std::vector<std::string>& names) {
    for (auto item : split_items(text, ",\n")) {
        if (auto hash = item.find('#'); hash != std::string_view::npos) item = item.substr(0, hash);
        if (item = trim(item, " \t\r"); !item.empty()) names.emplace_back(item);
    }
}

}  // namespace

Result<std::vector<std::string>> experimental_allow_list(const std::vector<std::string>& values,
                                                         const LinkRule& links) {
    std::vector<std::string> names;
    for (const auto& value : values) {
        if (!value.starts_with("@")) {
            add_names(value, names);
            continue;
        }
        if (value.size() == 1)
            return Gap{GapReason::error, "--allow-experimental @: no file name after the @"};
        auto text = read_user_file("--allow-experimental", user_path(value.substr(1)),
                                   kMaxAllowListBytes, links);
        if (!text) return text.gap();
        add_names(*text, names);
    }
    return names;
}

}  // namespace rdmi::cli
