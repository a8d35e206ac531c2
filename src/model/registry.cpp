// The probe registry's collector, and the checks its rows make whole.
#include "model/registry.hpp"
#include "probes/symbols/symbols_findings.hpp"

#include <exception>
#include <new>
#include <string>

namespace rdmi {

// The audit's checks as they are (the report's audit already carries the rdmi- ids); an audit
// that could not run is a skipped rdmi-symbols-exported.
void rows::symbols_checks(const Facts& facts, std::vector<Check>& out) {
    if (!facts.symbols) return;
    if (!*facts.symbols) {
        out.push_back(Check{
            finding::rdmi_symbols_exported, Status::skip, facts.symbols->gap().message, "", {}});
        return;
    }
    const auto& checks = (*facts.symbols)->checks;
    out.insert(out.end(), checks.begin(), checks.end());
}

namespace {

constexpr std::span<const ProbeRow> kRows = kProbeRows;

constexpr std::uint32_t bit(ProbeId id) {
    return std::uint32_t{1} << static_cast<unsigned>(id);
}

// The registry order must be the enum's, so that probe_row is an index.
constexpr bool rows_in_enum_order() {
    for (std::size_t i = 0; i < kRows.size(); ++i) {
        if (static_cast<std::size_t>(kRows[i].id) != i) return false;
    }
    return true;
}
static_assert(rows_in_enum_order());
static_assert(std::size(kProbeFields) == kRows.size(), "a row for every line of RDMI_PROBES");
static_assert(kRows.size() <= 32, "Facts::collected has one bit per probe");

void collect_one(const ProbeContext& ctx, ProbeId id, Facts& facts, const ProbeRequest& request,
                 OnProbeError on_error) {
    if (collected(facts, id)) return;
    const ProbeRow& row = probe_row(id);
    // Marked before the dependencies run, so that a cycle in the table cannot recurse forever.
    facts.collected |= bit(id);
    for (ProbeId dep : row.depends_on) collect_one(ctx, dep, facts, request, on_error);
    if (ctx.live()) {
        for (ProbeId dep : row.depends_on_live) collect_one(ctx, dep, facts, request, on_error);
    }
    if (on_error == OnProbeError::raise) {
        row.run(ctx, request, facts);
        return;
    }
    try {
        row.run(ctx, request, facts);
    } catch (const std::bad_alloc&) {
        // Out of memory is the run's failure, not the probe's: no check may say it (a
        // ResourceExhausted, no std::exception, passes this handler by design).
        throw;
    } catch (const std::exception& e) {
        facts.probe_errors.push_back({std::string(row.name), e.what()});
    }
}

// The rows `id` needs that have not run yet, itself included, as bits.
std::uint32_t pending_closure(const ProbeContext& ctx, ProbeId id, const Facts& facts,
                              std::uint32_t seen) {
    if (collected(facts, id) || (seen & bit(id)) != 0) return seen;
    seen |= bit(id);
    const ProbeRow& row = probe_row(id);
    for (ProbeId dep : row.depends_on) seen = pending_closure(ctx, dep, facts, seen);
    if (ctx.live()) {
        for (ProbeId dep : row.depends_on_live) seen = pending_closure(ctx, dep, facts, seen);
    }
    return seen;
}

}  // namespace

// Every row the collection will run that has a slow live half begins it now, so that a
// worker child loads and scans while the static probes read (docs/architecture.md).
void start_live_halves(const ProbeContext& ctx, std::span<const ProbeId> wanted, Facts& facts) {
    std::uint32_t pending = 0;
    for (ProbeId id : wanted) pending = pending_closure(ctx, id, facts, pending);
    for (const auto& row : kRows) {
        if (row.start == nullptr || (pending & bit(row.id)) == 0) continue;
        if ((facts.started & bit(row.id)) != 0) continue;
        facts.started |= bit(row.id);
        try {
            row.start(ctx, facts);
        } catch (const std::bad_alloc&) {
            throw;
        } catch (const std::exception&) {
            // Dropped: run() does the whole work and says what went wrong where it belongs.
        }
    }
}

std::span<const ProbeRow> probe_registry() {
    return kRows;
}

const ProbeRow& probe_row(ProbeId id) {
    return kRows[static_cast<std::size_t>(id)];
}

std::string_view probe_field(ProbeId id) {
    return kProbeFields[static_cast<std::size_t>(id)];
}

bool collected(const Facts& facts, ProbeId id) {
    return (facts.collected & bit(id)) != 0;
}

void collect(const ProbeContext& ctx, std::span<const ProbeId> wanted, Facts& facts,
             const ProbeRequest& request, OnProbeError on_error) {
    start_live_halves(ctx, wanted, facts);
    for (ProbeId id : wanted) collect_one(ctx, id, facts, request, on_error);
}

void collect(const ProbeContext& ctx, std::initializer_list<ProbeId> wanted, Facts& facts,
             const ProbeRequest& request, OnProbeError on_error) {
    collect(ctx, std::span<const ProbeId>(wanted.begin(), wanted.size()), facts, request, on_error);
}

namespace {

// Every check of the report, whatever the run's --for.
std::vector<Check> all_report_checks(const Facts& facts) {
    std::vector<Check> out;
    for (const auto& row : kRows) {
        if (!collected(facts, row.id)) continue;
        bool failed = false;
        for (const auto& error : facts.probe_errors) {
            if (error.probe != row.name) continue;
            failed = true;
            out.push_back(Check{FindingId(finding::probe_error, row.name),
                                Status::fail,
                                std::string(row.title) + ": internal error: " + error.message,
                                "report this as a bug in rdmi-probe, with the command line",
                                {}});
        }
        if (!failed && row.checks != nullptr) row.checks(facts, out);
    }
    return out;
}

}  // namespace

std::vector<Check> report_checks(const Facts& facts) {
    return checks_for(all_report_checks(facts), facts.run.for_purposes);
}

std::vector<Check> checks_for(const std::vector<Check>& checks, Purposes wanted) {
    std::vector<Check> out;
    for (const auto& check : checks) {
        if (answers(check.id.info().purposes, wanted)) out.push_back(check);
    }
    return out;
}

bool ready_for(const Facts& facts, Purposes wanted) {
    const Status result = overall_status(checks_for(all_report_checks(facts), wanted));
    return result != Status::fail && result != Status::skip;
}

}  // namespace rdmi
