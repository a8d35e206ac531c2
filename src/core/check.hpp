// The report model's vocabulary: provenance, sourced values and checks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/finding_catalog.hpp"
#include "core/gap.hpp"
#include "core/result.hpp"

namespace rdmi {

/// Where a datum came from. `kind` is one of: file, sysfs, procfs, pkg-config, command, api,
/// symbol, env, derived; `ref` names the file, module, command line, function or variable.
struct Provenance {
    std::string kind;
    std::string ref;
};

/// A value with its provenance, or the gap that explains why it is missing.
template <typename T>
struct Sourced {
    std::optional<T> value;
    Provenance source;
    std::optional<Gap> gap;

    [[nodiscard]] bool ok() const { return value.has_value(); }

    static Sourced of(T v, Provenance from) {
        return Sourced{std::move(v), std::move(from), std::nullopt};
    }
    static Sourced missing(Gap why, Provenance from) {
        return Sourced{std::nullopt, std::move(from), std::move(why)};
    }
    /// From a Result: the value or its gap, with the same provenance either way.
    static Sourced from(Result<T> result, Provenance from) {
        if (result.ok()) return of(std::move(result).value(), std::move(from));
        return missing(result.gap(), std::move(from));
    }
};

/// The outcome of one check. `info` records a fact without judging it; `warn` is a fact that
/// costs performance or robustness but does not stop RDMI (exit 0 unless check --fail-on-warn).
enum class Status { pass, fail, skip, info, warn };

/// The stable JSON name of a status.
std::string_view to_string(Status status);

/// What a check's remediation is to the fix plan, beyond its words. Most fixes belong to their
/// own check and need nothing here. A fix that several checks share for one cause names itself,
/// so that its step keeps one id whatever set of checks it resolves on a given host; a fix that
/// nothing else can help before (no NVIDIA device at all) says so, so that it comes first.
struct Remedy {
    /// A stable kebab-case name of the remediation ("install-doca"), a literal; empty: the step
    /// is named after its first check.
    std::string_view key;
    /// Every other step waits for this one: without it, following them gains nothing.
    bool precondition = false;
};

/// One finding: a stable kebab-case id from the finding catalog, a verdict, one line of
/// explanation, the fix, and the sources it was derived from.
struct Check {
    FindingId id;
    Status status = Status::info;
    std::string message;
    std::string remediation;  ///< empty when there is nothing to do
    std::vector<Provenance> sources;
    Remedy remedy{};  ///< what the remediation is to the fix plan (its identity, its precedence)
};

/// Counts of checks by status.
struct StatusCounts {
    int pass = 0;
    int fail = 0;
    int skip = 0;
    int info = 0;
    int warn = 0;
};

/// Tallies a list of checks.
StatusCounts count_statuses(const std::vector<Check>& checks);

/// The verdict over a list of checks (a document's `result`): fail when any failed, else skip
/// when any was skipped (what could not be checked outweighs a warning), else warn when any
/// warned, else pass (info records a fact and judges nothing).
Status overall_status(const std::vector<Check>& checks);

}  // namespace rdmi
