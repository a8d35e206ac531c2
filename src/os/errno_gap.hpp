// Maps an errno value to the Gap a probe reports ("<path>: <strerror>").
#pragma once

#include <string_view>

#include "core/gap.hpp"

namespace rdmi {

/// ENOENT/ENOTDIR -> not_found, EACCES/EPERM -> permission_denied, ELOOP -> "symbolic link
/// loop", anything else -> error; the message is "<what>: <description>".
Gap gap_from_errno(std::string_view what, int err);

}  // namespace rdmi
