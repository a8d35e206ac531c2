// The gate's order of checks and its verdict.
#include "check/evaluate.hpp"

namespace rdmi::check {

bool needs_symbols(const Policy& policy) {
    return !policy.symbols.empty() || !policy.stable.empty() || !policy.app.empty();
}

bool needs_devices(const Policy& policy) {
    return policy.device || policy.require_dpa || policy.require_port_active;
}

std::vector<Check> evaluate(const Policy& policy, const GateFacts& facts) {
    std::vector<Check> checks;
    if (facts.install != nullptr) checks = install_gate(policy, *facts.install);
    if (facts.symbols != nullptr) {
        auto more = symbols_gate(policy, *facts.symbols);
        checks.insert(checks.end(), more.begin(), more.end());
    }
    if (facts.devices != nullptr) {
        auto more = devices_gate(policy, *facts.devices, facts.live);
        checks.insert(checks.end(), more.begin(), more.end());
    }
    return checks;
}

}  // namespace rdmi::check
