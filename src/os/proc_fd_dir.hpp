// This process's /proc/self/fd held open, so that an O_PATH descriptor is reopened for reading
// with one path component instead of a walk of "/proc/self/fd/N" for every file.
#pragma once

namespace rdmi {

/// An O_PATH descriptor of this process's /proc/self/fd directory, opened on first use and
/// kept for the life of the process; -1 when /proc/self/fd is not procfs's (no /proc mounted,
/// another file system there) or cannot be opened, -EMFILE or -ENFILE when the process is out
/// of descriptors (tried again on the next call). A forked child never gets its parent's:
/// that directory lists the parent's descriptors, so the child's copy is closed at fork() and
/// the child opens its own on its first use. Thread-safe.
int proc_self_fd_dir();

/// Opens for reading the file the O_PATH descriptor `path_fd` holds, through /proc: the very
/// inode it holds, never another. `flags` are open(2)'s. -1 with errno when it cannot (ENOENT
/// when /proc/self/fd is missing or not procfs's: the caller then opens by name and compares;
/// EMFILE or ENFILE when out of descriptors).
int reopen_through_proc(int path_fd, int flags);

}  // namespace rdmi
