// The probe table: one row per probe, run in order by run_probes().
#pragma once

#include <span>
#include <string_view>

#include "probes/context.hpp"
#include "probes/report.hpp"

namespace rdmi {

/// One probe: a stable id, a title for humans, and the function that fills its part of the report.
struct ProbeSpec {
    std::string_view id;
    std::string_view title;
    void (*run)(const ProbeContext& ctx, Report& report);
};

/// Every probe, in the order they run.
std::span<const ProbeSpec> probe_table();

/// Runs every probe. A probe that throws becomes a ProbeError and a failed check
/// "<id>-probe"; the others still run.
void run_probes(const ProbeContext& ctx, Report& report);

}  // namespace rdmi
