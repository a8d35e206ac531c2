// Fs's own code: the defaults its implementations inherit (map_file by a copy, dir_files by
// whole paths) and the path helpers every caller of Fs uses.
#include "os/fs.hpp"

#include <algorithm>
#include <utility>

#include "os/string_bytes.hpp"

namespace rdmi {
namespace {

// Fs::dir_files' default: every file by its whole path.
class PathDirFiles final : public DirFiles {
  public:
    explicit PathDirFiles(const Fs& fs) : fs_(fs) {}
    [[nodiscard]] Result<std::string> read_file(std::string_view path,
                                                std::size_t max_bytes) const override {
        return fs_.read_file(path, max_bytes);
    }

  private:
    const Fs& fs_;
};

}  // namespace

Result<std::shared_ptr<const FileBytes>> Fs::map_file(std::string_view path,
                                                      std::size_t max_bytes) const {
    auto data = read_file(path, max_bytes);
    if (!data) return data.gap();
    return std::shared_ptr<const FileBytes>(std::make_shared<StringBytes>(std::move(data).value()));
}

std::unique_ptr<DirFiles> Fs::dir_files(std::string_view /*dir*/) const {
    return std::make_unique<PathDirFiles>(*this);
}

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

bool plain_absolute_path(std::string_view path) {
    if (path.size() < 2 || path.front() != '/' || path.back() == '/') return false;
    std::size_t start = 1;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, end - start);
        if (part.empty() || part == "." || part == "..") return false;
        start = end + 1;
    }
    return true;
}

std::string_view dir_name(std::string_view path) {
    while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    auto slash = path.rfind('/');
    if (slash == std::string_view::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

}  // namespace rdmi
