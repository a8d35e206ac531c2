// The one gate before the probes load a library or run a tool: the file, everything the
// loader would map with it, and every directory it would search first must be trusted.
#pragma once

#include <optional>
#include <string>

#include "core/gap.hpp"
#include "os/load_closure.hpp"
#include "probes/context.hpp"

namespace rdmi {

/// nullopt when the host file `path` may be loaded (kind library/ibverbs) or run (program):
/// check_library_trust() and check_load_closure() both pass, or --allow-untrusted-libs
/// overrides them (logged as a warning naming the path and the reason). Otherwise the Gap
/// (reason `untrusted`) naming the offending file or directory and the fix.
std::optional<Gap> refuse_untrusted_load(const ProbeContext& ctx, const std::string& path,
                                         LoadKind kind);

}  // namespace rdmi
