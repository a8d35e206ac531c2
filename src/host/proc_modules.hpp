// Parser for /proc/modules (the names of loaded kernel modules).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace rdmi::host {

/// Module names from /proc/modules, in file order. Each line is
/// "<name> <size> <refcount> <users> <state> <address>"; a line whose first field is not a
/// module name makes the whole file malformed. An empty file is valid (no module loaded).
Result<std::vector<std::string>> parse_proc_modules(std::string_view bytes);

}  // namespace rdmi::host
