// The gate: each requirement of a policy judged against the probes' facts, one check each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "check/policy.hpp"
#include "core/check.hpp"
#include "probes/devices/devices.hpp"
#include "probes/install/install.hpp"
#include "probes/install/install_integrity.hpp"
#include "probes/pcie_link/pcie_link.hpp"
#include "probes/symbols/symbols.hpp"

namespace rdmi::gate {

/// What the probes found, as far as the policy needed them.
struct GateFacts {
    const InstallFacts* install = nullptr;          ///< always probed
    const Result<SymbolsFacts>* symbols = nullptr;  ///< when symbols or an app are required
    const DevicesFacts* devices = nullptr;          ///< when devices are required
    const PcieLinkFacts* pcie_link = nullptr;       ///< when the PCIe links are required
    const IntegrityFacts* integrity = nullptr;      ///< when integrity is required
    /// Whether /sys/bus/pci/devices exists (the system probe's answer); read with pcie_link.
    bool pci_bus_present = true;
    bool live = true;  ///< false under --root
};

/// The gate's outcome: what the contract document carries.
/// How check --wait ended: the last evaluation's checks are the report's.
struct GateWait {
    double wait_s = 0;      ///< --wait
    double interval_s = 0;  ///< --interval
    std::size_t evaluations = 0;
    double waited_s = 0;  ///< from the first evaluation's start to the last one's end
};

struct GateReport {
    std::string spec_path = "-";  ///< the policy file, or "-" for command-line requirements
    std::vector<Check> checks;
    /// The verdict in the contract's vocabulary (gate_verdict()): the document's `result` and
    /// the exit code both come from it, so they cannot disagree.
    Status result = Status::pass;
    bool fail_on_warn = false;  ///< --fail-on-warn: a warning fails the gate
    /// The version sources --waive-source (or the policy's waive_sources) left out of the
    /// consistency match: the document records them.
    std::vector<std::string> waived_sources;
    /// check --wait: how the wait went, for the document; absent without --wait.
    std::optional<GateWait> wait;
};

/// Whether the policy needs the symbols probe.
bool needs_symbols(const Policy& policy);
/// Whether the policy needs the devices probe.
bool needs_devices(const Policy& policy);
/// Whether the policy needs the pcie-link probe.
bool needs_pcie_link(const Policy& policy);
/// Whether the policy needs the install-integrity probe.
bool needs_integrity(const Policy& policy);

/// min-version, max-version, exact-version, module-<name>, consistent-versions. Pure.
std::vector<Check> install_gate(const Policy& policy, const InstallFacts& install);
/// symbol-<name>, stable-<name>, app-resolves, app-experimental. Pure.
std::vector<Check> symbols_gate(const Policy& policy, const Result<SymbolsFacts>& symbols);
/// The device rows `which` names (a PCI address or SF name, an ibdev, a netdev); all of them
/// when `which` is empty. Pure.
std::vector<const DeviceSummary*> select_devices(const DevicesFacts& devices,
                                                 const std::string& which);
/// device, dpa, port-active. Pure.
std::vector<Check> devices_gate(const Policy& policy, const DevicesFacts& devices, bool live);

/// pcie-link: the links of every NVIDIA PF, or of the functions `--require-device NAME` selects
/// (`devices` then gives the selection). Warn, never fail: a link below what card and slot can
/// reach costs bandwidth, RDMI still runs. Skip when there is no link to judge. Pure.
Check pcie_link_gate(const Policy& policy, const PcieLinkFacts& links, const DevicesFacts* devices,
                     bool pci_bus_present, bool live);

/// Every check, in the policy's order. Pure.
std::vector<Check> evaluate(const Policy& policy, const GateFacts& facts);

/// One status in validate-before-commit's vocabulary (pass, fail, skip), which has no word
/// for a warning: warn is pass, or fail with `fail_on_warn`; info is pass.
Status contract_status(Status status, bool fail_on_warn);

/// The gate's verdict in that vocabulary: overall_status() of the checks' contract statuses.
Status gate_verdict(const std::vector<Check>& checks, bool fail_on_warn);

}  // namespace rdmi::gate
