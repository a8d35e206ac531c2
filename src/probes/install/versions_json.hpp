// JSON of the two four-way version matches and the consistency verdict, shared by the full
// report and doca-env's x_rdmi_probe so both say the same thing in the same shape.
#pragma once

#include "json/json_common.hpp"
#include "probes/install/install.hpp"

namespace rdmi::json {

/// One version source: name, state, the raw text with its provenance, the normalised version.
Json version_source(const VersionSource& src);

/// One match: its state, the version agreed on, the sources by state, and each source.
Json version_match(const VersionMatch& match);

/// The verdict of judge_consistency(): consistent, the rule, why, and both matches' states.
Json consistency(const InstallFacts& install);

}  // namespace rdmi::json
