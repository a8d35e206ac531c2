// Maps an errno value to the Gap a probe reports ("<path>: <strerror>").
#pragma once

#include <string_view>

#include "core/exhaustion.hpp"
#include "core/gap.hpp"

namespace rdmi {

/// ENOENT/ENOTDIR -> not_found, EACCES/EPERM -> permission_denied, ELOOP -> "symbolic link
/// loop", EFBIG -> error naming the file size limit, anything else -> error; the message is
/// "<what>: <description>". Exhaustion (is_exhaustion: EMFILE, ENFILE, ENOMEM, ENOBUFS) is no
/// gap: it throws ResourceExhausted, so that no caller can report it as absence.
Gap gap_from_errno(std::string_view what, int err);

}  // namespace rdmi
