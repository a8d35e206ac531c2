// The files of a bundle: what a recorded run read, resolved to real in-root paths, with the
// links that led there and each listed directory's entries, within the caps.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "os/fs.hpp"
#include "os/recording_fs.hpp"

namespace rdmi::bundle {

/// Bounds on what a bundle holds (stated in its manifest).
struct Caps {
    std::uint64_t file_bytes = std::uint64_t{8} << 20U;    ///< one file's contents
    std::uint64_t total_bytes = std::uint64_t{64} << 20U;  ///< all contents together
};

/// How a stored file's bytes came to be.
enum class Content {
    captured,     ///< the bytes the probe read (or mapped)
    placeholder,  ///< never read, only listed or examined: empty, its facts in the manifest
};

/// One object stored in the bundle, at its real in-root path.
struct Entry {
    std::string path;
    /// How it is stored: regular, directory or symlink (a device node, FIFO or socket is an
    /// empty regular file; `info.type` says what it was).
    FileType type = FileType::regular;
    FileInfo info;       ///< stat(2) of the original, without following
    std::string bytes;   ///< regular files: the stored contents
    std::string target;  ///< symlinks: relative, never above the root
    Content content = Content::captured;
};

/// Something the probe touched that the bundle does not hold, and why.
struct Skipped {
    std::string path;
    std::string reason;
    std::string limit;  ///< the Caps or BundleLimits field reached ("file_bytes"), or empty
};

/// An operation that failed during the recorded run: the replay gives the same gap.
struct FailedAccess {
    std::string path;
    std::string operation;  ///< "read", "list", "stat", "lstat", "readlink", "map"
    Gap gap;
};

/// The whole tree.
struct Tree {
    std::map<std::string, Entry> entries;  ///< by in-root path, "/" excluded
    std::vector<Skipped> skipped;
    std::vector<FailedAccess> failures;
    std::uint64_t failures_dropped = 0;  ///< failures past the manifest's room (fit_to_limits)
    std::uint64_t content_bytes = 0;
};

/// Builds the tree of `recorded` (RecordingFs::recorded()), looking again at `fs` (the file
/// system recorded, unrecorded) for the links on each path, the facts of each object and the
/// contents of mapped files. Never follows a link out of the root.
Tree build_tree(const Fs& fs, const std::map<std::string, PathAccess>& recorded, const Caps& caps);

/// The manifest's name of a file type ("regular", "directory", "symlink", "fifo", "socket",
/// "char_device", "block_device"; "other").
std::string_view type_name(FileType type);

/// The operation's name for FailedAccess.
std::string_view operation_name(std::uint32_t op);

/// `path` made absolute and normal: "." and empty components dropped, ".." never above "/".
std::string normal_path(std::string_view path);

/// The relative link text that leads from the link at `link` to the in-root `target`.
std::string relative_target(std::string_view link, std::string_view target);

}  // namespace rdmi::bundle
