// Loading the DOCA libraries and the plugin, and keeping the probe alive when a DOCA call never
// returns: the whole live part runs in a child process (run_isolated), and inside it on a worker
// thread watched against the deadline, so a hung call still yields a verdict naming its step.
#include <condition_variable>
#include <exception>
#include <memory>
#include <thread>

#include "core/exhaustion.hpp"
#include "probes/loopback/loopback_run.hpp"
#include "probes/loopback/loopback_trace.hpp"
#include "process/isolated_call.hpp"
#include "rdmi_probe_dpa_abi.h"
#include "text/text.hpp"

namespace rdmi::loopback {
namespace {

/// Time the child gets beyond the deadline to report before it is killed.
constexpr std::chrono::milliseconds kChildMargin{750};

// The child writes one file of its own: the --trace file the command created.
ContainmentRequest loopback_containment(const LoopbackOptions& options) {
    ContainmentRequest request{ContainedWork::loopback, {}, {}};
    if (!options.trace_path.empty()) request.writable_files.push_back(options.trace_path);
    return request;
}

}  // namespace

Result<LoadedDpaPlugin> load_dpa_plugin(const std::string& path) {
    auto library = DynamicLibrary::open(path);
    if (!library) return library.gap();
    LoadedDpaPlugin loaded{std::move(library).value(), {}};
    // dpacc's app symbol is a `struct doca_dpa_app *` variable: dlsym gives its address.
    auto* app_slot = static_cast<doca_dpa_app**>(loaded.library.symbol(RDMI_PROBE_DPA_APP_SYMBOL));
    loaded.plugin.noop_kernel =
        loaded.library.function<doca_dpa_func_t*>(RDMI_PROBE_NOOP_KERNEL_SYMBOL);
    loaded.plugin.write_kernel =
        loaded.library.function<doca_dpa_func_t*>(RDMI_PROBE_WRITE_KERNEL_SYMBOL);
    loaded.plugin.clock_kernel =
        loaded.library.function<doca_dpa_func_t*>(RDMI_PROBE_CLOCK_KERNEL_SYMBOL);
    std::vector<std::string> missing;
    if (app_slot == nullptr) missing.emplace_back(RDMI_PROBE_DPA_APP_SYMBOL);
    if (loaded.plugin.noop_kernel == nullptr) missing.emplace_back(RDMI_PROBE_NOOP_KERNEL_SYMBOL);
    if (loaded.plugin.write_kernel == nullptr) missing.emplace_back(RDMI_PROBE_WRITE_KERNEL_SYMBOL);
    if (loaded.plugin.clock_kernel == nullptr) missing.emplace_back(RDMI_PROBE_CLOCK_KERNEL_SYMBOL);
    if (!missing.empty()) {
        return make_gap(GapReason::not_found, path + " does not export " + join(missing) +
                                                  " (a plugin of another rdmi-probe version?)");
    }
    loaded.plugin.app = *app_slot;
    if (loaded.plugin.app == nullptr)
        return make_gap(GapReason::malformed, path + ": " RDMI_PROBE_DPA_APP_SYMBOL " is NULL");
    return loaded;
}

LoopbackVerdict run_loopback_from_files(const std::vector<std::string>& library_paths,
                                        const LoopbackOptions& options,
                                        const Deadline& wait_deadline, StepJournal& journal) {
    auto stop = [&journal, &options] {
        journal.update([&options](LoopbackVerdict& v) { v.level_requested = options.level; });
        LoopbackVerdict verdict = journal.snapshot();
        finish_verdict(verdict);
        return verdict;
    };
    journal.begin("load-libraries", 0);
    auto loaded = doca::load_doca_dpa_api(library_paths);
    if (!loaded) {
        journal.end(StepOutcome::fail, loaded.gap().message);
        return stop();
    }
    journal.update([&loaded](LoopbackVerdict& v) { v.libraries = loaded->loaded_paths; });
    journal.end(StepOutcome::pass,
                std::to_string(loaded->libraries.size()) + " DOCA libraries loaded");
    journal.begin("resolve-symbols", 0);
    if (!loaded->missing_required.empty()) {
        journal.end(StepOutcome::fail,
                    "the loaded DOCA libraries do not export " + join(loaded->missing_required));
        return stop();
    }
    journal.end(StepOutcome::pass, loaded->missing_optional.empty()
                                       ? "every function resolved"
                                       : "every required function resolved; absent: " +
                                             join(loaded->missing_optional));
    journal.begin("load-plugin", 0);
    auto plugin = load_dpa_plugin(options.plugin_path);
    if (!plugin) {
        journal.end(StepOutcome::fail, plugin.gap().message);
        return stop();
    }
    journal.end(StepOutcome::pass, "plugin loaded: application handle and kernels resolved");
    if (options.trace_path.empty())
        return run_loopback(loaded->api, plugin->plugin, options, wait_deadline, journal);
    // The caller created (and emptied) the file; this process appends a line per call.
    auto file = AppendFile::open(options.trace_path, false);
    if (!file) {
        journal.update([&file](LoopbackVerdict& v) {
            v.notes.push_back("trace not written: " + file.gap().message);
        });
        return run_loopback(loaded->api, plugin->plugin, options, wait_deadline, journal);
    }
    CallTrace trace(std::move(file).value());
    const doca::DocaDpaApi api = traced_api(loaded->api, trace);
    LoopbackVerdict verdict = run_loopback(api, plugin->plugin, options, wait_deadline, journal);
    if (!trace.complete())
        verdict.notes.push_back("trace incomplete: a write to " + options.trace_path + " failed");
    return verdict;
}

LoopbackVerdict run_with_watchdog(const std::function<LoopbackVerdict(StepJournal&)>& body,
                                  const Deadline& deadline, Progress& progress) {
    struct Shared {
        StepJournal journal;
        std::mutex mutex;
        std::condition_variable done_cv;
        bool done = false;
        LoopbackVerdict verdict;
        std::exception_ptr exhausted;
    };
    auto shared = std::make_shared<Shared>();
    shared->journal.report_to(progress);
    std::thread worker([shared, body] {
        LoopbackVerdict verdict;
        std::exception_ptr exhausted;
        try {
            verdict = body(shared->journal);
        } catch (const ResourceExhausted&) {
            // Out of resources ends the run; escaping this thread it would end it by abort().
            exhausted = std::current_exception();
        }
        std::lock_guard lock(shared->mutex);
        shared->verdict = std::move(verdict);
        shared->exhausted = exhausted;
        shared->done = true;
        shared->done_cv.notify_all();
    });
    std::unique_lock lock(shared->mutex);
    const bool finished =
        shared->done_cv.wait_for(lock, deadline.remaining(), [&shared] { return shared->done; });
    if (finished) {
        lock.unlock();
        worker.join();
        if (shared->exhausted) std::rethrow_exception(shared->exhausted);
        return shared->verdict;
    }
    lock.unlock();
    // The worker is inside a call that does not return; the process exits without it.
    worker.detach();
    LoopbackVerdict verdict = shared->journal.abandoned(
        "did not return before the deadline (--timeout); the run was abandoned here");
    finish_verdict(verdict);
    return verdict;
}

LoopbackVerdict run_loopback_isolated(const std::vector<std::string>& library_paths,
                                      const LoopbackOptions& options, const Deadline& deadline,
                                      const LoopbackVerdict& so_far, Progress& progress) {
    // Waits stop early enough to leave the teardown time before the watchdog fires.
    const auto budget = deadline.remaining();
    const auto reserve = std::min<std::chrono::milliseconds>(budget / 4, std::chrono::seconds(1));
    const Deadline watchdog = deadline;
    const Deadline waits(budget - reserve);
    const Deadline kill(budget + kChildMargin);
    // Shown here, so that this process knows to erase whatever the child's steps showed.
    progress.update("loopback: starting the DOCA child", 0, 0);
    auto child = run_isolated(
        [library_paths, options, watchdog, waits, &progress]() {
            // The child reports to the parent's terminal through the stderr it inherited.
            return encode_verdict(run_with_watchdog(
                [library_paths, options, waits](StepJournal& journal) {
                    return run_loopback_from_files(library_paths, options, waits, journal);
                },
                watchdog, progress));
        },
        kill, "loopback", loopback_containment(options));
    progress.finish();
    LoopbackVerdict verdict;
    if (child) {
        if (auto decoded = decode_verdict(*child)) {
            verdict = std::move(decoded).value();
        } else {
            verdict.steps.push_back(
                LoopbackStep{"isolated-run", 0, StepOutcome::fail, 0, decoded.gap().message, {}});
        }
    } else {
        const bool timed_out = child.gap().reason == GapReason::timeout;
        verdict.steps.push_back(
            LoopbackStep{"isolated-run",
                         0,
                         timed_out ? StepOutcome::timeout : StepOutcome::fail,
                         0,
                         child.gap().message + " (the step it was in is unknown)",
                         {}});
        verdict.teardown.complete = false;
    }
    verdict.steps.insert(verdict.steps.begin(), so_far.steps.begin(), so_far.steps.end());
    verdict.level_requested = options.level;
    verdict.plugin_path = so_far.plugin_path;
    if (verdict.libraries.empty()) verdict.libraries = so_far.libraries;
    finish_verdict(verdict);
    return verdict;
}

}  // namespace rdmi::loopback
