// `-d/--device` of report, env, caps and state: the names resolved against the sysfs scan
// before anything else is collected, so that an unknown name costs no library load.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/session.hpp"
#include "model/facts.hpp"
#include "model/registry.hpp"

namespace rdmi::cli {

/// With `names`: collects the system probe into `facts`, resolves the names, narrows its scan
/// to them and sets `facts.device_scope` and `request.devices`, so that the probes collected
/// next judge only those functions. Without names it does nothing. A name that matches no
/// function is a usage error naming the functions there are: its exit code is returned.
[[nodiscard]] std::optional<int> scope_to_devices(const Session& session, std::string_view command,
                                                  const std::vector<std::string>& names,
                                                  Facts& facts, ProbeRequest& request,
                                                  OnProbeError on_error);

}  // namespace rdmi::cli
