// Running an installed tool (doca_caps, dpacc) the safe way: live only, trusted path only,
// argument vector, deadline.
#pragma once

#include <string>
#include <vector>

#include "probes/context.hpp"

namespace rdmi {

/// Runs the in-root tool `path` with `args` and returns its stdout. Gap not_applicable under
/// --root, untrusted when the path fails the trusted-library rule, timeout past the call
/// deadline, error for a non-zero exit (with the first line of stderr).
Result<std::string> run_tool(const ProbeContext& ctx, const std::string& path,
                             const std::vector<std::string>& args);

}  // namespace rdmi
