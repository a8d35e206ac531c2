// The fix plan: the remediations of a run's failed and skipped checks, deduplicated, each with a
// stable id, and ordered so that what every other step waits for comes first, then the step that
// unblocks the most.
#pragma once

#include <string>
#include <vector>

#include "core/check.hpp"

namespace rdmi {

/// One step of the plan: one action, and the checks it resolves.
struct FixStep {
    /// Names the remediation, not its words: the first explicit Remedy::key among its checks,
    /// else the id of the first check it resolves; "#2", "#3" follow an id that an earlier step
    /// of the same run already has. So the same remediation keeps its id across runs and hosts
    /// even when its text carries a version or a path, and `diff` matches steps by it.
    std::string id;
    std::string action;                  ///< the remediation, one command or one precise action
    std::vector<std::string> resolves;   ///< check ids, in the order the run reported them
    bool fixes_failure = false;          ///< at least one of them failed (not only skipped)
    bool precondition = false;           ///< a check of it declares every other step waits for it
    Purposes purposes = Purposes::none;  ///< the union of the purposes of the checks it resolves
};

/// Groups the failed and skipped checks by their remediation (checks with the same fix are one
/// step) and orders the steps: preconditions first, then more checks resolved first, then
/// failures before skips, then the order the run found them. Checks without a remediation are
/// left out. Pure.
std::vector<FixStep> plan_fixes(const std::vector<Check>& checks);

/// The 1-based number of the step of `steps` that carries `check`'s remediation, or 0 when the
/// plan has none for it (it passed, only warned, or has no fix).
std::size_t step_number(const std::vector<FixStep>& steps, const Check& check);

}  // namespace rdmi
