// The install probe's section of the full JSON report.
#pragma once

#include "json/json_common.hpp"
#include "probes/install/install.hpp"

namespace rdmi::json {

/// The install section: prefix and layout, the pkg-config modules, the version matches and
/// their consistency, the headers, libraries, samples and tools found.
Json install(const InstallFacts& facts);

}  // namespace rdmi::json
