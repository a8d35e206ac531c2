// The full report's version_matrix section.
#pragma once

#include "json/json_common.hpp"
#include "probes/version_matrix.hpp"

namespace rdmi::json {

/// {path, present, gap, schema_version, generated_at, install_version, entries[...]}: each
/// entry as the matrix has it plus `available` (null when the install's version is unknown).
Json version_matrix(const VersionMatrixFacts& facts);

}  // namespace rdmi::json
