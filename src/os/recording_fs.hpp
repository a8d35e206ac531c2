// RecordingFs: an Fs decorator that remembers every file read, directory listed, link read and
// path examined through it, with what the probe got back (a support bundle is made of that).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "os/fs.hpp"

namespace rdmi {

/// What was done to one in-root path, and what came back.
struct PathAccess {
    /// The operations, as bits.
    enum Op : std::uint32_t {
        read = 1U << 0U,    ///< read_file / DirFiles::read_file
        mapped = 1U << 1U,  ///< map_file (contents not kept: re-read when bundled)
        listed = 1U << 2U,  ///< list_dir
        stat_follow = 1U << 3U,
        stat_nofollow = 1U << 4U,
        link_read = 1U << 5U,  ///< read_link
        resolved = 1U << 6U,   ///< real_path / host_path
    };
    std::uint32_t ops = 0;
    std::optional<std::string> content;  ///< what read_file returned, when it succeeded
    std::vector<DirEntry> entries;       ///< what list_dir returned, when it succeeded
    /// Gaps met, by operation bit (a read error replays as the same error).
    std::map<std::uint32_t, Gap> gaps;
};

/// Forwards every call to `inner` and records it. Thread-safe (the loopback waits on a worker).
class RecordingFs final : public Fs {
  public:
    explicit RecordingFs(const Fs& inner) : inner_(inner) {}

    [[nodiscard]] Result<std::string> read_file(
        std::string_view path, std::size_t max_bytes = kDefaultReadCap) const override;
    [[nodiscard]] Result<std::shared_ptr<const FileBytes>> map_file(
        std::string_view path, std::size_t max_bytes) const override;
    [[nodiscard]] std::unique_ptr<DirFiles> dir_files(std::string_view dir) const override;
    [[nodiscard]] Result<std::vector<DirEntry>> list_dir(std::string_view path) const override;
    [[nodiscard]] Result<FileInfo> stat(std::string_view path, bool follow = true) const override;
    [[nodiscard]] Result<std::string> read_link(std::string_view path) const override;
    [[nodiscard]] Result<std::string> real_path(std::string_view path) const override;
    [[nodiscard]] Result<std::string> host_path(std::string_view path) const override;
    [[nodiscard]] const std::string& root() const override { return inner_.root(); }
    [[nodiscard]] bool is_live() const override { return inner_.is_live(); }

    /// The file system recorded (for the bundle writer, which reads it again unrecorded).
    [[nodiscard]] const Fs& inner() const { return inner_; }
    /// Every path touched so far, sorted.
    [[nodiscard]] std::map<std::string, PathAccess> recorded() const;

    /// Records one read (DirFiles readers report here).
    void note_read(std::string_view path, const Result<std::string>& got) const;

  private:
    template <typename T>
    void note(std::string_view path, PathAccess::Op op, const Result<T>& got) const;

    const Fs& inner_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, PathAccess> accesses_;
};

}  // namespace rdmi
