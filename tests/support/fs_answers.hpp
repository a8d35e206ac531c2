// Every answer an Fs gives about one path, as text, so that two views can be compared whole.
#pragma once

#include <string>

#include "os/fs.hpp"

namespace rdmi::test {

/// What each read of `path` gives (read_file capped and not, stat following and not,
/// read_link, real_path, list_dir, map_file): the value or the gap's reason and message, one
/// line each. Equal texts mean equal answers. A directory's size is left out (it is the file
/// system's block size, not content).
std::string fs_answers(const Fs& fs, const std::string& path);

}  // namespace rdmi::test
