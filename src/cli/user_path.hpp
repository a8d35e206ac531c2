// The paths the user names on the command line (--app, --check, --lib, --headers, --policy, a
// policy's app, diff's inputs, @FILE allow-lists): paths on this machine, relative to the working
// directory, even under --root.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "os/link_rule.hpp"

namespace rdmi::cli {

/// `path` made absolute against the working directory, and nothing else: `.` components and
/// repeated slashes go, `..` stays for the kernel to resolve. Lexical normalisation would turn
/// `link/../app` into `app` beside the link, while the shell (and open(2)) mean the `app` beside
/// the link's target. Empty and absolute paths are returned as given; so is a relative path when
/// the working directory cannot be read.
std::string user_path(const std::string& path);

/// The contents of the file at `full_path` (a user_path()), read from the live file system even
/// under --root, at most `max_bytes` of it. A Gap's message is "<option> <why>", so that it says
/// which option named the file as well as the full path tried. `links`: the run's
/// Session::link_rule() (a path the user names is read through links as the probe's own are).
Result<std::string> read_user_file(std::string_view option, const std::string& full_path,
                                   std::size_t max_bytes, const LinkRule& links);

/// The names of an --allow-experimental: each value is NAME,NAME,... or @FILE (names separated
/// by commas or lines, '#' starting a comment that runs to the end of its line or to the next
/// comma), the file read with read_user_file(). check and symbols take the same lists.
Result<std::vector<std::string>> experimental_allow_list(const std::vector<std::string>& values,
                                                         const LinkRule& links);

}  // namespace rdmi::cli
