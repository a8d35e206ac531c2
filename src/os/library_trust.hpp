// The trusted-library rule: loading a shared object runs its constructors, so only files that
// no other unprivileged user could have planted are ever loaded.
#pragma once

#include <optional>
#include <string>

#include "core/gap.hpp"

namespace rdmi {

/// Returns nullopt when the host file `path` may be loaded: the file, its real target and every
/// directory above each are owned by root or the invoking user and not writable by group or
/// others; a sticky directory (like /tmp) is accepted when the entry below it is owned by root
/// or the invoking user. Otherwise a Gap (reason `untrusted`) naming the offending path.
std::optional<Gap> check_library_trust(const std::string& path);

}  // namespace rdmi
