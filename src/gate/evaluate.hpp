// The gate: each requirement of a policy judged against the probes' facts, one check each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "gate/policy.hpp"
#include "probes/devices.hpp"
#include "probes/install.hpp"
#include "probes/symbols.hpp"

namespace rdmi::gate {

/// What the probes found, as far as the policy needed them.
struct GateFacts {
    const InstallFacts* install = nullptr;          ///< always probed
    const Result<SymbolsFacts>* symbols = nullptr;  ///< when symbols or an app are required
    const DevicesFacts* devices = nullptr;          ///< when devices are required
    bool live = true;                               ///< false under --root
};

/// The gate's outcome: what the contract document carries.
struct GateReport {
    std::string spec_path = "-";  ///< the policy file, or "-" for command-line requirements
    std::vector<Check> checks;
    /// The verdict in the contract's vocabulary (gate_verdict()): the document's `result` and
    /// the exit code both come from it, so they cannot disagree.
    Status result = Status::pass;
    bool fail_on_warn = false;  ///< --fail-on-warn: a warning fails the gate
};

/// Whether the policy needs the symbols probe.
bool needs_symbols(const Policy& policy);
/// Whether the policy needs the devices probe.
bool needs_devices(const Policy& policy);

/// min-version, max-version, exact-version, module-<name>, consistent-versions. Pure.
std::vector<Check> install_gate(const Policy& policy, const InstallFacts& install);
/// symbol-<name>, stable-<name>, app-resolves, app-experimental. Pure.
std::vector<Check> symbols_gate(const Policy& policy, const Result<SymbolsFacts>& symbols);
/// device, dpa, port-active. Pure.
std::vector<Check> devices_gate(const Policy& policy, const DevicesFacts& devices, bool live);

/// Every check, in the policy's order. Pure.
std::vector<Check> evaluate(const Policy& policy, const GateFacts& facts);

/// One status in validate-before-commit's vocabulary (pass, fail, skip), which has no word
/// for a warning: warn is pass, or fail with `fail_on_warn`; info is pass.
Status contract_status(Status status, bool fail_on_warn);

/// The gate's verdict in that vocabulary: overall_status() of the checks' contract statuses.
Status gate_verdict(const std::vector<Check>& checks, bool fail_on_warn);

}  // namespace rdmi::gate
