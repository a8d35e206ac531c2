// Writing the document to --output: the only file the probe ever writes, and never anything
// it must not replace.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi {

/// Writes `content` to `path` by what `path` is (following symbolic links):
///   missing            a new regular file, mode 0644 less the umask (exactly 0644 when
///                      `world_readable`), created atomically (a temporary dot-file beside
///                      it, fsync, rename that never replaces)
///   regular file       replaced atomically in its own directory; it keeps its mode and
///                      owner. A link to a regular file: the target is replaced, the link
///                      stays. A file with several hard links is rewritten in place.
///   character device, FIFO, socket
///                      opened (a socket: connected) and written in place, never replaced;
///                      a reader has `reader_wait` to appear and to take the whole document,
///                      else a Gap (timeout) says how far it got
///   directory, block device, a link to nothing
///                      refused: a Gap naming the path and why
/// Readers see the old file or the new one, never a partial one (regular files).
/// `world_readable` is for a document another service reads under its own user (node_exporter's
/// textfile collector): a umask such as 027 would make it unreadable there.
Result<bool> write_output_file(const std::string& path, std::string_view content,
                               std::chrono::milliseconds reader_wait, bool world_readable = false);

/// True when `path` is the file stdout writes to (`--output /dev/stdout`, or the file stdout
/// is redirected to): nothing else may then go to stdout.
bool is_stdout_file(const std::string& path);

}  // namespace rdmi
