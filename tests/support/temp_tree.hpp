// TempTree: a real directory tree in a fresh temporary directory, removed when it goes away.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace rdmi::test {

/// A temporary directory that tests fill with real files, links and FIFOs.
class TempTree {
  public:
    TempTree();
    ~TempTree();
    TempTree(const TempTree&) = delete;
    TempTree& operator=(const TempTree&) = delete;

    /// Host path of the tree's root.
    [[nodiscard]] const std::string& root() const { return root_; }
    /// Host path of an in-tree path ("/etc/x" -> "<root>/etc/x").
    [[nodiscard]] std::string host(std::string_view in_tree) const;

    /// Writes a file (creating parent directories) with the given permission bits.
    void write(std::string_view in_tree, std::string_view content, unsigned mode = 0644) const;
    /// Creates a directory and its parents.
    void mkdir(std::string_view in_tree, unsigned mode = 0755) const;
    /// Creates a symbolic link at `in_tree` whose target text is `target`.
    void symlink(std::string_view target, std::string_view in_tree) const;
    /// Creates a FIFO.
    void fifo(std::string_view in_tree) const;
    /// Changes permission bits.
    void chmod(std::string_view in_tree, unsigned mode) const;

  private:
    std::string root_;
};

}  // namespace rdmi::test
