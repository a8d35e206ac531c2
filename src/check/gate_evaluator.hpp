// check's evaluation: the probes a policy needs collected and judged, once for `check`, again
// and again for `check --wait`, whose polls re-read only what the requirements can see change.
#pragma once

#include <optional>
#include <vector>

#include "check/evaluate.hpp"
#include "check/policy.hpp"
#include "context/context.hpp"
#include "core/check.hpp"
#include "os/fs.hpp"
#include "probes/devices/devices.hpp"
#include "sysfs/inventory_poll.hpp"

namespace rdmi::gate {

/// Whether the policy has a requirement install_gate() judges (versions, modules,
/// consistency): one that reads the install probe's facts.
bool needs_install(const Policy& policy);

/// Whether a poll of check --wait can keep the devices' facts of the last whole evaluation and
/// re-read only listings and port states: the policy needs devices but not the PCIe links
/// (those read the whole scan), the scan left nothing unread (sysfs::inventory_pollable), and,
/// live with --require-dpa, DOCA answered for every PCI function (an answer that is missing
/// could come on a later ask; one that came stays while its function does).
bool devices_pollable(const Policy& policy, const DevicesFacts& devices, bool live);

/// Collects and judges a policy. evaluate() reads everything the requirements need afresh, as
/// a single `check` does; poll() re-reads per requirement kind (docs/ci.md, "What a poll
/// re-reads"): install requirements the install probe, symbol and application requirements
/// the symbol audit, integrity the package records, all as evaluate() does; device, DPA and
/// port requirements only the listings and port states (sysfs/inventory_poll.hpp), the rest
/// from the last whole evaluation; the PCIe link requirement everything.
class GateEvaluator {
  public:
    /// `policy` and `user_fs` (where --app is read) outlive the evaluator.
    GateEvaluator(const Policy& policy, const Fs& user_fs, bool live)
        : policy_(&policy), user_fs_(&user_fs), live_(live) {}

    /// Every check, from facts collected afresh. Keeps the devices' facts for later polls.
    std::vector<Check> evaluate(const ProbeContext& ctx);

    /// Every check after re-reading what the requirements can see change. Each check's status
    /// is the one evaluate() would give now; where complete() is false, the wording of a
    /// device check may rest on facts of the last whole evaluation (a port's physical state, a
    /// netdev's flags), so a document is written only from a complete() evaluation. Falls back
    /// to evaluate() where a poll cannot answer (devices_pollable, sysfs::poll_inventory).
    std::vector<Check> poll(const ProbeContext& ctx);

    /// Whether the last evaluate() or poll() collected everything afresh.
    [[nodiscard]] bool complete() const { return complete_; }

  private:
    std::vector<Check> judge(const ProbeContext& ctx, const DevicesFacts* polled);

    const Policy* policy_;
    const Fs* user_fs_;
    bool live_;
    bool complete_ = false;
    /// The last whole evaluation's devices' facts, their port states as the last poll read.
    std::optional<DevicesFacts> devices_;
    bool devices_pollable_ = false;
    sysfs::InventoryPollMemory memory_;
};

}  // namespace rdmi::gate
