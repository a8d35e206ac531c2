// RecordingFs: forwards and records; the recorded contents are the bytes the probe saw.
#include "os/recording_fs.hpp"

#include <type_traits>
#include <utility>

namespace rdmi {

// The recording view: every call forwarded to the inner Fs, its answer noted by the owner.
class RecordingFs::View final : public Fs {
  public:
    explicit View(const RecordingFs& owner) : owner_(owner), inner_(owner.inner_) {}

    [[nodiscard]] Result<std::string> read_file(std::string_view path,
                                                std::size_t max_bytes) const override {
        return noted(path, PathAccess::read, inner_.read_file(path, max_bytes));
    }
    [[nodiscard]] Result<std::shared_ptr<const FileBytes>> map_file(
        std::string_view path, std::size_t max_bytes) const override {
        return noted(path, PathAccess::mapped, inner_.map_file(path, max_bytes));
    }
    [[nodiscard]] std::unique_ptr<DirFiles> dir_files(std::string_view dir) const override {
        return std::make_unique<Files>(*this, inner_.dir_files(dir));
    }
    [[nodiscard]] Result<std::vector<DirEntry>> list_dir(std::string_view path) const override {
        return noted(path, PathAccess::listed, inner_.list_dir(path));
    }
    [[nodiscard]] Result<FileInfo> stat(std::string_view path, bool follow) const override {
        return noted(path, follow ? PathAccess::stat_follow : PathAccess::stat_nofollow,
                     inner_.stat(path, follow));
    }
    [[nodiscard]] Result<std::string> read_link(std::string_view path) const override {
        return noted(path, PathAccess::link_read, inner_.read_link(path));
    }
    [[nodiscard]] Result<std::string> real_path(std::string_view path) const override {
        return noted(path, PathAccess::resolved, inner_.real_path(path));
    }
    [[nodiscard]] Result<std::string> host_path(std::string_view path) const override {
        return noted(path, PathAccess::resolved, inner_.host_path(path));
    }
    [[nodiscard]] const std::string& root() const override { return inner_.root(); }
    [[nodiscard]] bool is_live() const override { return inner_.is_live(); }

  private:
    // A directory's reader: each file read is noted as read_file's would be.
    class Files final : public DirFiles {
      public:
        Files(const View& view, std::unique_ptr<DirFiles> inner)
            : view_(view), inner_(std::move(inner)) {}
        [[nodiscard]] Result<std::string> read_file(std::string_view path,
                                                    std::size_t max_bytes) const override {
            return view_.noted(path, PathAccess::read, inner_->read_file(path, max_bytes));
        }

      private:
        const View& view_;
        std::unique_ptr<DirFiles> inner_;
    };

    template <typename T>
    Result<T> noted(std::string_view path, PathAccess::Op op, Result<T> got) const {
        owner_.note(path, op, got);
        return got;
    }

    const RecordingFs& owner_;
    const Fs& inner_;
};

RecordingFs::RecordingFs(const Fs& inner) : inner_(inner), view_(std::make_unique<View>(*this)) {}

RecordingFs::~RecordingFs() = default;

const Fs& RecordingFs::fs() const {
    return *view_;
}

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

std::map<std::string, PathAccess> RecordingFs::recorded() const {
    const std::scoped_lock lock(mutex_);
    return accesses_;
}

}  // namespace rdmi
