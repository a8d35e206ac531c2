// AppendFile: a log file written one line at a time, each line one write(2) on an O_APPEND
// descriptor, so lines survive a crash or a kill of the writer and never interleave.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi {

class AppendFile {
  public:
    /// Opens (creating with mode 0644) `path` for appending; `truncate` empties it first. A
    /// symbolic link as the last component, anything but a regular file, another user's file
    /// with several hard links, and any file with several hard links in a directory where
    /// another user may create names are refused (judged by fstat of what was opened).
    static Result<AppendFile> open(const std::string& path, bool truncate);

    AppendFile(AppendFile&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    AppendFile& operator=(AppendFile&& other) noexcept;
    AppendFile(const AppendFile&) = delete;
    AppendFile& operator=(const AppendFile&) = delete;
    ~AppendFile();

    /// Appends `line` and a newline in one write; false when the write failed or was short.
    bool write_line(std::string_view line) const;

  private:
    explicit AppendFile(int fd) : fd_(fd) {}
    int fd_ = -1;
};

}  // namespace rdmi
