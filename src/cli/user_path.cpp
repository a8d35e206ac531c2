// user_path(): the working directory in front, `..` left to the kernel; read_user_file().
#include "cli/user_path.hpp"

#include <filesystem>
#include <system_error>

#include "os/rooted_fs.hpp"

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
                                   std::size_t max_bytes) {
    auto fs = RootedFs::open("/");
    if (!fs) return fs.gap();
    auto bytes = fs->read_file(full_path, max_bytes);
    if (!bytes) return Gap{bytes.gap().reason, std::string(option) + " " + bytes.gap().message};
    return bytes;
}

}  // namespace rdmi::cli
