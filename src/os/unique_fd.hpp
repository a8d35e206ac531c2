// UniqueFd: a file descriptor closed when its owner goes away.
#pragma once

#include <unistd.h>

#include <utility>

namespace rdmi {

/// Owns one descriptor (or none, when negative) and closes it on destruction.
class UniqueFd {
  public:
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() {
        if (fd_ >= 0) ::close(fd_);
    }
    /// The descriptor, still owned.
    [[nodiscard]] int get() const { return fd_; }
    /// The descriptor, no longer owned (the caller closes it).
    int release() { return std::exchange(fd_, -1); }

  private:
    int fd_;
};

}  // namespace rdmi
