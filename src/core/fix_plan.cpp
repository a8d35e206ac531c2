// plan_fixes(): one step per distinct remediation, the widest first.
#include "core/fix_plan.hpp"

#include <algorithm>

namespace rdmi {

std::vector<FixStep> plan_fixes(const std::vector<Check>& checks) {
    std::vector<FixStep> steps;
    for (const auto& check : checks) {
        if (check.status != Status::fail && check.status != Status::skip) continue;
        if (check.remediation.empty()) continue;
        auto step = std::find_if(steps.begin(), steps.end(),
                                 [&](const FixStep& s) { return s.action == check.remediation; });
        if (step == steps.end()) {
            steps.push_back(FixStep{check.remediation, {}, false, Purposes::none});
            step = steps.end() - 1;
        }
        if (std::find(step->resolves.begin(), step->resolves.end(), check.id.str()) ==
            step->resolves.end())
            step->resolves.push_back(check.id.str());
        step->fixes_failure = step->fixes_failure || check.status == Status::fail;
        step->purposes = step->purposes | check.id.info().purposes;
    }
    // stable_sort keeps discovery order among equals: the probes run install, devices, symbols.
    std::stable_sort(steps.begin(), steps.end(), [](const FixStep& a, const FixStep& b) {
        if (a.resolves.size() != b.resolves.size()) return a.resolves.size() > b.resolves.size();
        return a.fixes_failure && !b.fixes_failure;
    });
    return steps;
}

}  // namespace rdmi
