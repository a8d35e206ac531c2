// Writing the document to --output: the only file the probe ever writes (besides a replay's
// private directory), and never anything it must not replace.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi {

/// Who may read a new --output file (an existing one keeps its own mode).
enum class NewFileMode {
    umask_0644,      ///< 0644 less the umask: a document for the user who asked for it
    world_readable,  ///< exactly 0644: another service reads it under its own user
                     ///< (node_exporter's textfile collector, nfd-worker); a umask such as 027
                     ///< would make it unreadable there
    owner_only,      ///< 0600: a support bundle, copies of files only its writer could read
};

/// Writes `content` to `path` by what `path` is. Writes never follow what they did not vet:
/// the path is resolved once (resolve_output_target) into a held directory and a name, and
/// every later step is relative to that directory; owner and mode come from fstat of what was
/// found there, never from a second look at the path.
///   missing            a new regular file, mode by `new_mode`, created atomically (a
///                      temporary dot-file beside it, O_EXCL | O_NOFOLLOW, fsync, a rename
///                      that never replaces)
///   regular file       replaced atomically in its own directory (renameat on the held
///                      directory); it keeps its mode and owner. A file with several hard links
///                      is refused when it is another user's (it may have been linked there to
///                      be overwritten); the effective user's own is rewritten in place only in
///                      a directory no other user may create names in, elsewhere replaced (the
///                      other names keep their content). Another user's file, when not root,
///                      is rewritten in place. A bundle (owner_only) is never written to
///                      another user's file, FIFO or socket.
///   character device, FIFO, socket
///                      opened (a socket: connected through the descriptor that was looked
///                      at) and written in place, never replaced; refused with several hard
///                      links in a directory where others may create names;
///                      a reader has `reader_wait` to appear and to take the whole document,
///                      else a Gap (timeout) says how far it got
///   symbolic link      in the directories or as the last component: followed only when the
///                      link is owned by root or the effective user (each link of a chain),
///                      whatever it leads to; a regular file so reached is replaced in its own
///                      directory and the link stays. Owned by another user, or to nothing:
///                      refused, naming the link (and its owner)
///   directory, block device
///                      refused: a Gap naming the path and why
/// Readers see the old file or the new one, never a partial one (regular files replaced).
Result<bool> write_output_file(const std::string& path, std::string_view content,
                               std::chrono::milliseconds reader_wait,
                               NewFileMode new_mode = NewFileMode::umask_0644);

/// True when `path` is the file stdout writes to (`--output /dev/stdout`, or the file stdout
/// is redirected to): nothing else may then go to stdout.
bool is_stdout_file(const std::string& path);

}  // namespace rdmi
