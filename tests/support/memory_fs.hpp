// MemoryFs: an Fs whose tree lives in memory, for probe tests that are about what a probe makes
// of files, not about how the real file system hands them over.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "os/fs.hpp"

namespace rdmi::test {

/// Who owns an entry of a MemoryFs (root by default).
struct FileOwner {
    uid_t uid = 0;
    gid_t gid = 0;
};

/// An in-memory tree with the answers RootedFs gives for the same tree: links followed inside
/// the root (absolute targets re-rooted, ".." stopping at "/", a loop an error), only regular
/// files read, each entry's owner and mode as stat() reports them, and, when `owner_match`
/// holds, the owner rule of os/link_rule.hpp (a link is followed only when its owner is root or
/// owns its target). Reads are not checked against modes: the probe reads as root. Paths given
/// to the setters are absolute and plain; missing parent directories are made (root, 0755).
class MemoryFs final : public Fs {
  public:
    /// An empty tree (its root directory only) that root() names `root`.
    explicit MemoryFs(std::string root = "/memory", bool owner_match = false);

    /// A copy of the real tree below the host directory `host_dir`: files with their contents,
    /// directories, links with their target text, FIFOs, each with its owner and mode.
    static MemoryFs copy_of(const std::string& host_dir, bool owner_match = false);

    /// Writes a regular file, replacing what was at `path`.
    void write(std::string_view path, std::string_view content, std::uint32_t mode = 0644,
               FileOwner owner = {});
    /// Makes a directory (and its parents); an existing one gets `mode` and `owner`.
    void mkdir(std::string_view path, std::uint32_t mode = 0755, FileOwner owner = {});
    /// Makes a symbolic link at `path` whose target text is `target`.
    void symlink(std::string_view target, std::string_view path, FileOwner owner = {});
    /// Makes a FIFO (a read of it is refused, never blocks).
    void fifo(std::string_view path, std::uint32_t mode = 0644, FileOwner owner = {});
    /// Changes an entry's permission bits.
    void chmod(std::string_view path, std::uint32_t mode);
    /// Changes an entry's owner.
    void chown(std::string_view path, FileOwner owner);
    /// Removes an entry and everything below it.
    void remove(std::string_view path);
    /// Moves an entry and everything below it to `to` (whose parent must exist), as rename(2).
    void rename(std::string_view from, std::string_view to);

    [[nodiscard]] Result<std::string> read_file(
        std::string_view path, std::size_t max_bytes = kDefaultReadCap) const override;
    [[nodiscard]] Result<std::vector<DirEntry>> list_dir(std::string_view path) const override;
    [[nodiscard]] Result<FileInfo> stat(std::string_view path, bool follow = true) const override;
    [[nodiscard]] Result<std::string> read_link(std::string_view path) const override;
    [[nodiscard]] Result<std::string> real_path(std::string_view path) const override;
    /// Always a gap: an in-memory file has no host path (nothing may run a tool on it).
    [[nodiscard]] Result<std::string> host_path(std::string_view path) const override;
    [[nodiscard]] const std::string& root() const override { return root_; }
    [[nodiscard]] bool is_live() const override { return false; }

  private:
    struct Node {
        FileType type = FileType::directory;
        std::uint32_t mode = 0755;
        FileOwner owner;
        std::string data;  ///< a file's contents, a link's target text
    };

    /// The in-tree path `path` names, links followed (the last one only when `follow_last`).
    [[nodiscard]] Result<std::string> resolve(std::string_view path, bool follow_last) const;
    /// resolve() inside a walk that has followed `links` links already (a loop ends there).
    [[nodiscard]] Result<std::string> resolve_counting(std::string_view path, bool follow_last,
                                                       int links) const;
    [[nodiscard]] const Node& node(const std::string& resolved) const {
        return nodes_.at(resolved);
    }
    Node& place(std::string_view path, Node node);
    Node& existing(std::string_view path);

    std::string root_;
    bool owner_match_;
    std::map<std::string, Node, std::less<>> nodes_;  ///< by canonical in-tree path
};

}  // namespace rdmi::test
