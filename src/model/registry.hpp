// The probe registry: the collector every command goes through, over the rows of
// src/model/facts.hpp, and what the rows make whole (the report's probes and checks).
#pragma once

#include <array>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "model/facts.hpp"

namespace rdmi {

/// Every row, in registry order.
std::span<const ProbeRow> probe_registry();

/// The row of `id`.
const ProbeRow& probe_row(ProbeId id);

/// The name of `id`'s field of Facts ("pcie_link").
std::string_view probe_field(ProbeId id);

/// Whether a probe has run in `facts` (successfully or not).
bool collected(const Facts& facts, ProbeId id);

/// What happens when a probe throws.
enum class OnProbeError {
    record,  ///< a ProbeError (and, in report_checks, a failed "<id>-probe" check); others run
    raise,   ///< the exception propagates to the command
};

/// Begins the slow live halves (ProbeRow::start) of the rows a later collect() of `wanted` will
/// run, so that a worker child works while other probes read; collect() calls it itself, a
/// command that collects in several steps calls it once before the first.
void start_live_halves(const ProbeContext& ctx, std::span<const ProbeId> wanted, Facts& facts);

/// Runs the `wanted` probes and what they depend on, in dependency order, each at most once per
/// `facts` (a probe already collected is not run again); begins their live halves first.
void collect(const ProbeContext& ctx, std::span<const ProbeId> wanted, Facts& facts,
             const ProbeRequest& request = {}, OnProbeError on_error = OnProbeError::raise);
void collect(const ProbeContext& ctx, std::initializer_list<ProbeId> wanted, Facts& facts,
             const ProbeRequest& request = {}, OnProbeError on_error = OnProbeError::raise);

namespace detail {
constexpr std::size_t report_probe_count() {
    std::size_t n = 0;
    for (const auto& row : kProbeRows) n += row.in_report ? 1 : 0;
    return n;
}
}  // namespace detail

/// The probes of the full report (the rows marked in_report), in registry order.
inline constexpr auto kReportProbes = [] {
    std::array<ProbeId, detail::report_probe_count()> out{};
    std::size_t i = 0;
    for (const auto& row : kProbeRows) {
        if (row.in_report) out[i++] = row.id;
    }
    return out;
}();

/// The report's checks: every collected probe's checks in registry order, a failed
/// "<id>-probe" check where a probe stopped with an error; of those, the ones that answer
/// `facts.run.for_purposes` (`report --for`). Pure.
std::vector<Check> report_checks(const Facts& facts);

/// The checks of `checks` that answer any of `wanted`, in their order.
std::vector<Check> checks_for(const std::vector<Check>& checks, Purposes wanted);

/// Whether `report --for wanted` exits 0 on these facts (whatever the run's own --for):
/// no check of that purpose failed or was skipped. Pure.
bool ready_for(const Facts& facts, Purposes wanted);

// The registry's own catalog entry: the check a probe that stopped with an error becomes.
namespace finding {

inline constexpr FindingInfo probe_error{
    "<probe>-probe", "report (any probe)",
    "A probe stopped with an internal error; the other probes still ran.",
    "Report it as a bug in rdmi-probe, with the command line.", Purposes::both};

}  // namespace finding

/// The registry's own entries: a probe that stopped with an error (check_catalog() lists them
/// after the rows' entries).
inline constexpr const FindingInfo* kRegistryFindings[] = {&finding::probe_error};

}  // namespace rdmi
