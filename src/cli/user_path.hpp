// The paths the user names on the command line (--app, --check, --lib, --headers, --policy, a
// policy's app, diff's inputs, @FILE allow-lists): paths on this machine, relative to the working
// directory, even under --root.
#pragma once

#include <string>

namespace rdmi::cli {

/// `path` made absolute against the working directory, and nothing else: `.` components and
/// repeated slashes go, `..` stays for the kernel to resolve. Lexical normalisation would turn
/// `link/../app` into `app` beside the link, while the shell (and open(2)) mean the `app` beside
/// the link's target. Empty and absolute paths are returned as given; so is a relative path when
/// the working directory cannot be read.
std::string user_path(const std::string& path);

}  // namespace rdmi::cli
