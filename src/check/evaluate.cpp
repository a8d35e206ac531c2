// The gate's order of checks and its verdict.
#include "check/evaluate.hpp"

namespace rdmi::gate {

bool needs_symbols(const Policy& policy) {
    return !policy.symbols.empty() || !policy.stable.empty() || !policy.app.empty();
}

bool needs_devices(const Policy& policy) {
    return policy.device || policy.require_dpa || policy.require_port_active;
}

bool needs_pcie_link(const Policy& policy) {
    return policy.require_pcie_link;
}

bool needs_integrity(const Policy& policy) {
    return policy.require_integrity;
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
    if (facts.pcie_link != nullptr) {
        checks.push_back(pcie_link_gate(policy, *facts.pcie_link, facts.devices,
                                        facts.pci_bus_present, facts.live));
    }
    // The probe's own verdict: the gate selects nothing within it.
    if (facts.integrity != nullptr) checks.push_back(facts.integrity->check);
    return checks;
}

Status contract_status(Status status, bool fail_on_warn) {
    switch (status) {
        case Status::warn:
            return fail_on_warn ? Status::fail : Status::pass;
        case Status::info:
            return Status::pass;
        case Status::pass:
        case Status::fail:
        case Status::skip:
            break;
    }
    return status;
}

Status gate_verdict(const std::vector<Check>& checks, bool fail_on_warn) {
    // Mapped one by one: with --fail-on-warn a warning outweighs a skip, as a failure does.
    std::vector<Check> mapped;
    mapped.reserve(checks.size());
    for (const auto& check : checks)
        mapped.push_back(Check{check.id, contract_status(check.status, fail_on_warn), "", "", {}});
    return overall_status(mapped);
}

}  // namespace rdmi::gate
