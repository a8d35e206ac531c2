// plan_fixes(): one step per distinct remediation, preconditions first, then the widest.
#include "core/fix_plan.hpp"

#include <algorithm>
#include <map>

namespace rdmi {
namespace {

bool planned(const Check& check) {
    return (check.status == Status::fail || check.status == Status::skip) &&
           !check.remediation.empty();
}

// Ids are made unique in the order the run found the steps (not the plan's order, which a
// change elsewhere in the run can shuffle), so that a step keeps its suffix while its own
// checks stay the same.
void make_ids_unique(std::vector<FixStep>& steps) {
    std::map<std::string, int> seen;
    for (auto& step : steps) {
        const int count = ++seen[step.id];
        if (count > 1) step.id += "#" + std::to_string(count);
    }
}

}  // namespace

std::vector<FixStep> plan_fixes(const std::vector<Check>& checks) {
    std::vector<FixStep> steps;
    std::vector<bool> keyed;  // whether steps[i].id came from a Remedy::key
    for (const auto& check : checks) {
        if (!planned(check)) continue;
        auto step = std::find_if(steps.begin(), steps.end(),
                                 [&](const FixStep& s) { return s.action == check.remediation; });
        if (step == steps.end()) {
            steps.push_back(
                FixStep{check.id.str(), check.remediation, {}, false, false, Purposes::none});
            keyed.push_back(false);
            step = steps.end() - 1;
        }
        const auto index = static_cast<std::size_t>(step - steps.begin());
        // A shared fix is named for what it is, whichever of its checks this host reports first.
        if (!keyed[index] && !check.remedy.key.empty()) {
            step->id = std::string(check.remedy.key);
            keyed[index] = true;
        }
        if (std::find(step->resolves.begin(), step->resolves.end(), check.id.str()) ==
            step->resolves.end())
            step->resolves.push_back(check.id.str());
        step->fixes_failure = step->fixes_failure || check.status == Status::fail;
        step->precondition = step->precondition || check.remedy.precondition;
        step->purposes = step->purposes | check.id.info().purposes;
    }
    make_ids_unique(steps);
    // stable_sort keeps discovery order among equals: the probes run install, devices, symbols.
    std::stable_sort(steps.begin(), steps.end(), [](const FixStep& a, const FixStep& b) {
        // A step every other waits for comes first, however few checks it resolves: installing
        // DOCA on a host without an NVIDIA device resolves ten checks and enables nothing.
        if (a.precondition != b.precondition) return a.precondition;
        if (a.resolves.size() != b.resolves.size()) return a.resolves.size() > b.resolves.size();
        return a.fixes_failure && !b.fixes_failure;
    });
    return steps;
}

std::size_t step_number(const std::vector<FixStep>& steps, const Check& check) {
    if (!planned(check)) return 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].action == check.remediation) return i + 1;
    }
    return 0;
}

}  // namespace rdmi
