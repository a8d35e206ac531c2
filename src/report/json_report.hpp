// The full JSON report (schemas/rdmi-probe-report.schema.json).
#pragma once

#include "json/json_common.hpp"
#include "model/facts.hpp"

namespace rdmi::json {

/// The schema id the full report declares.
inline constexpr const char* kReportSchemaId = "urn:rdmi-probe:schema:report";
/// The version of that schema.
inline constexpr const char* kReportSchemaVersion = "1.5.0";

/// {"name": "rdmi-probe", "version": ...}: the "tool" object of every document.
Json tool();

/// The "run" object of every document: root, live, generated_at, duration_ms, timeout_s,
/// containment.
Json run_info(const RunInfo& run);

/// The whole report as a JSON document.
Json report(const Facts& report);

}  // namespace rdmi::json
