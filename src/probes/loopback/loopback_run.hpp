// The loopback's internals, shared by the probe and its tests: the step journal, the plugin, the
// in-process orchestration, the watchdog, the isolated run and the verdict's wire format.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/doca_dpa_api.hpp"
#include "core/deadline.hpp"
#include "core/progress.hpp"
#include "loader/dynamic_library.hpp"
#include "probes/loopback/loopback.hpp"

namespace rdmi::loopback {

/// A thread-safe record of the run so far, so that a watchdog can report a hung step.
class StepJournal {
  public:
    /// Where step starts and write iterations are reported (default: nowhere).
    void report_to(Progress& progress) { progress_ = &progress; }
    /// Starts a step; the previous one must have ended. Reported to the progress sink.
    void begin(std::string id, int level);
    /// Reports write iteration `done` of `total` to the progress sink.
    void iteration(int done, int total) const;
    /// Ends the running step.
    void end(StepOutcome outcome, std::string message, std::optional<DocaFailure> error = {});
    /// Records a step that did not run a DOCA call (skip, or a static finding).
    void record(std::string id, int level, StepOutcome outcome, std::string message);
    /// Changes the verdict under the lock.
    void update(const std::function<void(LoopbackVerdict&)>& change);
    /// A copy of the verdict so far.
    [[nodiscard]] LoopbackVerdict snapshot() const;
    /// The verdict so far with the running step (if any) ended as `timeout` with `why`, and the
    /// teardown marked incomplete: what a watchdog reports for an abandoned run.
    [[nodiscard]] LoopbackVerdict abandoned(const std::string& why) const;

  private:
    mutable std::mutex mutex_;
    LoopbackVerdict verdict_;
    std::optional<LoopbackStep> running_;
    std::chrono::steady_clock::time_point started_;
    Progress* progress_ = &Progress::none();
};

/// The plugin's exports (dpa_kernels/include/rdmi_probe_dpa_abi.h).
struct DpaPlugin {
    doca_dpa_app* app = nullptr;
    doca_dpa_func_t* noop_kernel = nullptr;
    doca_dpa_func_t* write_kernel = nullptr;
    doca_dpa_func_t* clock_kernel = nullptr;
};

/// An opened plugin and its resolved exports.
struct LoadedDpaPlugin {
    DynamicLibrary library;
    DpaPlugin plugin;
};

/// dlopens the plugin and resolves the app handle (dereferencing dpacc's pointer variable) and
/// the kernels; a Gap naming the missing export otherwise.
Result<LoadedDpaPlugin> load_dpa_plugin(const std::string& path);

/// The orchestration, in this process, through `api`: levels 1..3 (and the self-test) after the
/// L0 device choice. `wait_deadline` bounds every wait for the DPA. Tears down in reverse order
/// of creation on every path. Returns the finished verdict (see finish_verdict).
LoopbackVerdict run_loopback(const doca::DocaDpaApi& api, const DpaPlugin& plugin,
                             const LoopbackOptions& options, const Deadline& wait_deadline,
                             StepJournal& journal);

/// Loads the libraries and the plugin (steps load-libraries, load-plugin), then run_loopback.
LoopbackVerdict run_loopback_from_files(const std::vector<std::string>& library_paths,
                                        const LoopbackOptions& options,
                                        const Deadline& wait_deadline, StepJournal& journal);

/// Runs `body` on a worker thread. If it has not finished by `deadline`, the worker is abandoned
/// (it is inside a call that does not return) and the journal's state is returned with the
/// running step marked `timeout`. Only for use in a process that exits afterwards (the child of
/// run_isolated): the abandoned thread is never joined.
LoopbackVerdict run_with_watchdog(const std::function<LoopbackVerdict(StepJournal&)>& body,
                                  const Deadline& deadline, Progress& progress = Progress::none());

/// The whole live part in a child process: run_loopback_from_files under the watchdog at
/// `deadline`, the child itself killed a margin later. A child that crashes gives a failed
/// verdict that says so. `journal` holds the parent's steps so far and receives the child's.
LoopbackVerdict run_loopback_isolated(const std::vector<std::string>& library_paths,
                                      const LoopbackOptions& options, const Deadline& deadline,
                                      const LoopbackVerdict& so_far,
                                      Progress& progress = Progress::none());

/// Derives result, level reached, failed step, layer, first action and notes from the steps.
void finish_verdict(LoopbackVerdict& verdict);

/// The layer a failure at `step` with DOCA error `error` (0: none) belongs to.
Layer layer_of(std::string_view step, int error, bool rdmi_objects);
/// The first action for a failure (docs/reference/error-codes.md#error-taxonomy, then the
/// layer's default).
std::string first_action(Layer layer, int error, StepOutcome outcome);
/// The unconfirmed facts (docs/reference/dpa-lifecycle.md#not-confirmed) that bear on `step`.
std::vector<std::string> unconfirmed_notes(std::string_view step, bool rdmi_objects);

/// The verdict as the text that crosses the process boundary, and back.
std::string encode_verdict(const LoopbackVerdict& verdict);
/// Parses encode_verdict's output; a Gap (malformed) for anything else.
Result<LoopbackVerdict> decode_verdict(std::string_view text);

}  // namespace rdmi::loopback
