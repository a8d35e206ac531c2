// The fix plan: the remediations of a run's failed and skipped checks, deduplicated and ordered
// so that the step that unblocks the most comes first.
#pragma once

#include <string>
#include <vector>

#include "core/check.hpp"

namespace rdmi {

/// One step of the plan: one action, and the checks it resolves.
struct FixStep {
    std::string action;                  ///< the remediation, one command or one precise action
    std::vector<std::string> resolves;   ///< check ids, in the order the run reported them
    bool fixes_failure = false;          ///< at least one of them failed (not only skipped)
    Purposes purposes = Purposes::none;  ///< the union of the purposes of the checks it resolves
};

/// Groups the failed and skipped checks by their remediation (checks with the same fix are one
/// step) and orders the steps: more checks resolved first, then failures before skips, then
/// the order the run found them. Checks without a remediation are left out. Pure.
std::vector<FixStep> plan_fixes(const std::vector<Check>& checks);

}  // namespace rdmi
