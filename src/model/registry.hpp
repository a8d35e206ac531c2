// The probe registry: one row per probe (what it reads, what it needs, what it adds to the
// facts model, the checks it emits), and the one collector every command goes through.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "model/facts.hpp"
#include "probes/context.hpp"
#include "probes/loopback.hpp"
#include "probes/symbols.hpp"

namespace rdmi {

/// Every probe, in registry order (an order in which each probe follows what it depends on).
enum class ProbeId : std::uint8_t {
    install,
    system,
    verbs,
    doca_caps,
    devices,
    symbols,
    version_matrix,
    environment,
    samples,
    loopback,
    pcie_link,
};

/// What a command wants of the probes that take parameters.
struct ProbeRequest {
    /// What the symbols probe audits; nullopt: the install's doca-rdmi module (the report).
    std::optional<SymbolsRequest> symbols;
    /// The loopback's options; the loopback probe runs only when they are given.
    std::optional<LoopbackOptions> loopback;
};

/// One probe.
struct ProbeRow {
    ProbeId id;
    std::string_view name;   ///< stable kebab-case id ("install"); names a probe error
    std::string_view title;  ///< for humans ("DOCA install and versions")
    std::string_view reads;  ///< what it looks at
    /// The probes whose facts it reads; they run first.
    std::span<const ProbeId> depends_on;
    /// Probes it reads only on the live root (under --root it does not look at them).
    std::span<const ProbeId> depends_on_live;
    std::string_view adds;  ///< the field of Facts it fills
    /// Runs the probe: reads its dependencies' facts, fills its own. Leaves its field empty
    /// when an input it needs is missing (a dependency that failed says why).
    void (*run)(const ProbeContext& ctx, const ProbeRequest& request, Facts& facts);
    /// Appends the checks its facts carry, as the report lists them (nullptr: none). Pure.
    void (*checks)(const Facts& facts, std::vector<Check>& out);
};

/// Every row, in registry order.
std::span<const ProbeRow> probe_registry();

/// The row of `id`.
const ProbeRow& probe_row(ProbeId id);

/// Whether a probe has run in `facts` (successfully or not).
bool collected(const Facts& facts, ProbeId id);

/// What happens when a probe throws.
enum class OnProbeError {
    record,  ///< a ProbeError (and, in report_checks, a failed "<id>-probe" check); others run
    raise,   ///< the exception propagates to the command
};

/// Runs the `wanted` probes and what they depend on, in dependency order, each at most once per
/// `facts` (a probe already collected is not run again).
void collect(const ProbeContext& ctx, std::span<const ProbeId> wanted, Facts& facts,
             const ProbeRequest& request = {}, OnProbeError on_error = OnProbeError::raise);
void collect(const ProbeContext& ctx, std::initializer_list<ProbeId> wanted, Facts& facts,
             const ProbeRequest& request = {}, OnProbeError on_error = OnProbeError::raise);

/// The probes of the full report, in report order.
inline constexpr ProbeId kReportProbes[] = {ProbeId::install,     ProbeId::devices,
                                            ProbeId::symbols,     ProbeId::version_matrix,
                                            ProbeId::environment, ProbeId::pcie_link};

/// The report's checks: every collected probe's checks in registry order, a failed
/// "<id>-probe" check where a probe stopped with an error. Pure.
std::vector<Check> report_checks(const Facts& facts);

}  // namespace rdmi
