// RecordingFs: an Fs decorator that remembers every file read, directory listed, link read and
// path examined through it, with what the probe got back (a support bundle is made of that).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
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

/// Records every call made through its view, fs(), which forwards each to `inner`. Thread-safe
/// (the loopback waits on a worker). The view is not a second declaration of Fs's interface
/// here: it is private to the recorder, which callers ask only for what was recorded.
class RecordingFs {
  public:
    explicit RecordingFs(const Fs& inner);
    RecordingFs(const RecordingFs&) = delete;
    RecordingFs& operator=(const RecordingFs&) = delete;
    ~RecordingFs();

    /// The file system to read through: `inner`'s answers, each call recorded.
    [[nodiscard]] const Fs& fs() const;
    /// The file system recorded (for the bundle writer, which reads it again unrecorded).
    [[nodiscard]] const Fs& inner() const { return inner_; }
    /// Every path touched so far, sorted.
    [[nodiscard]] std::map<std::string, PathAccess> recorded() const;

  private:
    class View;
    friend class View;

    template <typename T>
    void note(std::string_view path, PathAccess::Op op, const Result<T>& got) const;

    const Fs& inner_;
    std::unique_ptr<const View> view_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, PathAccess> accesses_;
};

}  // namespace rdmi
