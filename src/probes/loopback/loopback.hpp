// The DPA loopback probe: levels L0..L3 from "is it all there" to "a DPA kernel's RDMA write
// landed", each step timed, torn down in reverse on every path, with a verdict that names the
// failing layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "core/finding_catalog.hpp"
#include "probes/install/install.hpp"

namespace rdmi {

/// The deepest level: 0 static, 1 device + DPA context, 2 empty kernel, 3 loopback write.
inline constexpr int kLoopbackMaxLevel = 3;
/// Bounds on --bytes and --iterations (safety: bounded sizes and time).
inline constexpr std::size_t kLoopbackMaxBytes = std::size_t{64} << 20;
inline constexpr int kLoopbackMaxIterations = 100000;
/// Transfers of at least this many bytes get a bandwidth figure.
inline constexpr std::size_t kLoopbackBandwidthMinBytes = 65536;

/// What the user asked for.
struct LoopbackOptions {
    int level = kLoopbackMaxLevel;
    std::string device;  ///< PCI address or ibdev name; empty: the first DPA-capable PF
    std::size_t bytes = 4096;
    int iterations = 1;
    bool lifecycle_selftest = false;
    std::string plugin_path;  ///< rdmi-probe-dpa.so; empty: none found
    std::uint32_t seed = 0x5eed;
    std::string trace_path;  ///< --trace FILE: every DOCA call as a JSON line; empty: none
};

/// How one step ended. `not_run` steps were skipped because an earlier one stopped the run.
enum class StepOutcome { pass, fail, skip, timeout };

/// The stable JSON name of an outcome.
std::string_view to_string(StepOutcome outcome);

/// Where a failure belongs (docs/reference/error-codes.md#error-taxonomy).
enum class Layer { install, version, driver, verbs, dpa, rdmi };

/// The stable JSON name of a layer.
std::string_view to_string(Layer layer);

/// A DOCA call that returned an error: the call, the code, its name and description verbatim.
struct DocaFailure {
    std::string call;  ///< "doca_dpa_start"
    int code = 0;
    std::string name;         ///< "DOCA_ERROR_BAD_STATE"
    std::string description;  ///< doca_error_get_descr() text, verbatim
};

/// One step of the run.
struct LoopbackStep {
    std::string id;  ///< kebab-case, stable ("open-device")
    int level = 0;
    StepOutcome outcome = StepOutcome::pass;
    double duration_ms = 0;
    std::string message;
    std::optional<DocaFailure> error;
};

/// The device the run used.
struct LoopbackDevice {
    std::string pci_addr;
    std::string ibdev;
};

/// Figures of the write level.
struct LoopbackMeasurements {
    std::size_t bytes = 0;
    int iterations = 0;
    double latency_min_us = 0;  ///< launch to completion event
    double latency_median_us = 0;
    double latency_max_us = 0;
    std::optional<double> bandwidth_mb_s;  ///< only when bytes >= kLoopbackBandwidthMinBytes
};

/// The negative lifecycle self-test.
struct LoopbackSelftest {
    Status result = Status::skip;
    std::string objects;   ///< "doca_rdmi_poster" or "doca_rdma"
    std::string expected;  ///< "DOCA_ERROR_BAD_STATE"
    std::string returned;  ///< what the library answered
    std::string message;
};

/// How the teardown went.
struct LoopbackTeardown {
    int released = 0;                 ///< objects released, in reverse order of creation
    std::vector<std::string> errors;  ///< "doca_ctx_stop: DOCA_ERROR_...: ..."
    bool complete = true;             ///< false when the process was abandoned (hung call)
};

/// The verdict.
struct LoopbackVerdict {
    Status result = Status::skip;  ///< pass, fail or skip
    int level_requested = kLoopbackMaxLevel;
    int level_reached = -1;  ///< the last level whose steps all passed
    std::string reason;      ///< one line: why skip or fail, or what passed
    std::vector<LoopbackStep> steps;
    std::optional<std::string> failed_step;
    std::optional<DocaFailure> error;
    std::optional<Layer> layer;
    std::string first_action;  ///< from the error taxonomy; empty on pass
    std::optional<LoopbackDevice> device;
    std::optional<LoopbackMeasurements> measurements;
    std::optional<std::size_t> mismatch_offset;  ///< first byte that differs
    std::optional<LoopbackSelftest> selftest;
    LoopbackTeardown teardown;
    std::string plugin_path;
    std::vector<std::string> libraries;
    std::vector<std::string> notes;  ///< unconfirmed facts relevant to what happened
};

/// Runs the probe: static checks here, every live DOCA call in a child process bounded by the
/// run's deadline. Under --root, without DOCA, plugin or DPA device: skip with the reason.
/// `install` (the install probe's facts) is read only on the live root.
LoopbackVerdict probe_loopback(const ProbeContext& ctx, const std::optional<InstallFacts>& install,
                               const LoopbackOptions& options);

/// The loopback as one check (`dpa-loopback`) for a report.
Check loopback_check(const LoopbackVerdict& verdict);

// The loopback verdict's catalog entry.
namespace finding {

inline constexpr FindingInfo dpa_loopback{
    "dpa-loopback", "loopback",
    "A DPA kernel's loopback RDMA write landed and was verified, up to the requested "
    "level.",
    "Follow the first action the failure names (it gives the DOCA error and the "
    "layer: install, version, driver, verbs, DPA or RDMI).",
    Purposes::run};

}  // namespace finding

/// The `loopback` command's entries (it is no report probe: check_catalog() lists them after
/// the `symbols` command's).
inline constexpr const FindingInfo* kLoopbackCommandFindings[] = {&finding::dpa_loopback};

}  // namespace rdmi
