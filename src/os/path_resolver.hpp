// Resolving a path inside a root in user space, one lstat per component: the fallback for
// kernels (or seccomp profiles) without openat2(RESOLVE_IN_ROOT).
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace rdmi {

/// Resolves the absolute in-root `path` below the host directory `root` the way
/// openat2(RESOLVE_IN_ROOT) would: absolute link targets are re-rooted, ".." stops at the
/// root, more than 40 links is a loop. The final component is followed only when
/// `follow_last`. Returns the canonical in-root path; a missing final component is not an
/// error (the caller's own call reports it).
Result<std::string> resolve_in_root(const std::string& root, std::string_view path,
                                    bool follow_last);

/// "<root><in_root>", or `root` itself for "/".
std::string host_path_of(const std::string& root, const std::string& in_root);

}  // namespace rdmi
