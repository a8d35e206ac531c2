// Writing a file atomically: a temporary file beside it, fsync, rename.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi {

/// Replaces `path` with `content` so that readers see the old file or the new one, never a
/// partial one. The only file the probe ever writes (--output).
Result<bool> atomic_write(const std::string& path, std::string_view content);

}  // namespace rdmi
