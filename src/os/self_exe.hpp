// The absolute path of the running executable, for "using structured rdmi-probe (path: ...)".
#pragma once

#include <string>

#include "core/result.hpp"

namespace rdmi {

/// readlink("/proc/self/exe") of the live system (never rooted: it names this process).
Result<std::string> self_executable_path();

}  // namespace rdmi
