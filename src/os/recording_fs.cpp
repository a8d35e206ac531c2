// RecordingFs: forwards and records; the recorded contents are the bytes the probe saw.
#include "os/recording_fs.hpp"

namespace rdmi {
namespace {

class RecordingDirFiles final : public DirFiles {
  public:
    RecordingDirFiles(const RecordingFs& owner, std::unique_ptr<DirFiles> inner)
        : owner_(owner), inner_(std::move(inner)) {}
    [[nodiscard]] Result<std::string> read_file(std::string_view path,
                                                std::size_t max_bytes) const override {
        auto got = inner_->read_file(path, max_bytes);
        owner_.note_read(path, got);
        return got;
    }

  private:
    const RecordingFs& owner_;
    std::unique_ptr<DirFiles> inner_;
};

}  // namespace

template <typename T>
void RecordingFs::note(std::string_view path, PathAccess::Op op, const Result<T>& got) const {
    const std::scoped_lock lock(mutex_);
    PathAccess& access = accesses_[std::string(path)];
    access.ops |= op;
    if (!got) {
        access.gaps[op] = got.gap();
        return;
    }
    access.gaps.erase(op);
    if constexpr (std::is_same_v<T, std::string>) {
        if (op == PathAccess::read) access.content = *got;
    } else if constexpr (std::is_same_v<T, std::vector<DirEntry>>) {
        access.entries = *got;
    }
}

void RecordingFs::note_read(std::string_view path, const Result<std::string>& got) const {
    note(path, PathAccess::read, got);
}

Result<std::string> RecordingFs::read_file(std::string_view path, std::size_t max_bytes) const {
    auto got = inner_.read_file(path, max_bytes);
    note(path, PathAccess::read, got);
    return got;
}

Result<std::shared_ptr<const FileBytes>> RecordingFs::map_file(std::string_view path,
                                                               std::size_t max_bytes) const {
    auto got = inner_.map_file(path, max_bytes);
    note(path, PathAccess::mapped, got);
    return got;
}

std::unique_ptr<DirFiles> RecordingFs::dir_files(std::string_view dir) const {
    return std::make_unique<RecordingDirFiles>(*this, inner_.dir_files(dir));
}

Result<std::vector<DirEntry>> RecordingFs::list_dir(std::string_view path) const {
    auto got = inner_.list_dir(path);
    note(path, PathAccess::listed, got);
    return got;
}

Result<FileInfo> RecordingFs::stat(std::string_view path, bool follow) const {
    auto got = inner_.stat(path, follow);
    note(path, follow ? PathAccess::stat_follow : PathAccess::stat_nofollow, got);
    return got;
}

Result<std::string> RecordingFs::read_link(std::string_view path) const {
    auto got = inner_.read_link(path);
    note(path, PathAccess::link_read, got);
    return got;
}

Result<std::string> RecordingFs::real_path(std::string_view path) const {
    auto got = inner_.real_path(path);
    note(path, PathAccess::resolved, got);
    return got;
}

Result<std::string> RecordingFs::host_path(std::string_view path) const {
    auto got = inner_.host_path(path);
    note(path, PathAccess::resolved, got);
    return got;
}

std::map<std::string, PathAccess> RecordingFs::recorded() const {
    const std::scoped_lock lock(mutex_);
    return accesses_;
}

}  // namespace rdmi
