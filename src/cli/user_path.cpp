// user_path(): the working directory in front, `..` left to the kernel.
#include "cli/user_path.hpp"

#include <filesystem>
#include <system_error>

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

}  // namespace rdmi::cli
