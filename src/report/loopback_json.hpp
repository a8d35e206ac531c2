// The loopback document (schemas/rdmi-probe-loopback.schema.json) and its dpa_loopback section.
#pragma once

#include "json/json_common.hpp"
#include "model/facts.hpp"
#include "probes/loopback/loopback.hpp"

namespace rdmi::json {

/// The schema id the loopback document declares.
inline constexpr const char* kLoopbackSchemaId = "urn:rdmi-probe:schema:loopback";
/// The version of that schema.
inline constexpr const char* kLoopbackSchemaVersion = "1.1.0";

/// The `dpa_loopback` section: verdict, steps, failure, figures, self-test, teardown, notes.
Json dpa_loopback(const LoopbackVerdict& verdict);

/// The whole `loopback` document.
Json loopback_document(const RunInfo& run, const LoopbackVerdict& verdict);

}  // namespace rdmi::json
