// RootedFs: the real file system seen through a root directory (chroot-like, without privilege).
#pragma once

#include <string>

#include "os/fs.hpp"

namespace rdmi {

/// The host file system below `root`. Symbolic links are followed inside the root: absolute
/// targets are re-rooted, ".." never climbs above it, and a loop is an error (not a hang).
/// Files are opened non-blocking and must be regular, so a FIFO or device node never blocks.
class RootedFs final : public Fs {
  public:
    /// Opens a view below `root`. Fails when `root` is not an existing directory.
    static Result<RootedFs> open(const std::string& root);

    [[nodiscard]] Result<std::string> read_file(
        std::string_view path, std::size_t max_bytes = kDefaultReadCap) const override;
    [[nodiscard]] Result<std::vector<DirEntry>> list_dir(std::string_view path) const override;
    [[nodiscard]] Result<FileInfo> stat(std::string_view path, bool follow = true) const override;
    [[nodiscard]] Result<std::string> read_link(std::string_view path) const override;
    [[nodiscard]] Result<std::string> real_path(std::string_view path) const override;
    [[nodiscard]] Result<std::string> host_path(std::string_view path) const override;
    [[nodiscard]] const std::string& root() const override { return root_; }

  private:
    explicit RootedFs(std::string root) : root_(std::move(root)) {}

    /// Resolves `path` inside the root; the final component is followed only when `follow_last`.
    /// Returns the in-root canonical path.
    [[nodiscard]] Result<std::string> resolve(std::string_view path, bool follow_last) const;
    [[nodiscard]] std::string to_host(const std::string& in_root) const;

    std::string root_;  ///< canonical absolute host path, "/" for the live system
};

}  // namespace rdmi
