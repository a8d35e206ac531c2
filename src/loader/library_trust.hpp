// The trusted-library rule: loading a shared object runs its constructors, so only files that
// no other unprivileged user could have planted are ever loaded.
#pragma once

#include <optional>
#include <string>

#include "core/gap.hpp"
#include "loader/trust_cache.hpp"

namespace rdmi {

/// Returns nullopt when the host file `path` may be loaded: the file, its real target and every
/// directory above each are owned by root or the invoking user and not writable by group or
/// others; a sticky directory (like /tmp) is accepted when the entry below it is owned by root
/// or the invoking user. Otherwise a Gap (reason `untrusted`) naming the offending path.
/// With a `cache`, what it holds of the files is used and what is learnt is added.
std::optional<Gap> check_library_trust(const std::string& path, TrustCache* cache = nullptr);

/// Returns nullopt when the loader may search directory `dir`: it (or, when missing, its
/// nearest existing ancestor) is owned by root or the invoking user and not writable by group
/// or others, sticky or not, and the directories above it pass the rule of
/// check_library_trust(); the same for its real path. Otherwise a Gap (reason `untrusted`)
/// naming the offending directory and the fix.
std::optional<Gap> check_search_dir_trust(const std::string& dir, TrustCache* cache = nullptr);

}  // namespace rdmi
