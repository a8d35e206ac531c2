// The loopback orchestration (docs/reference/dpa-lifecycle.md#loopback-sequence): every DOCA
// object is registered for teardown the moment it exists, and torn down in reverse order of
// creation on every path (docs/reference/dpa-lifecycle.md#teardown).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include "core/exhaustion.hpp"
#include "probes/loopback/loopback_clock.hpp"
#include "probes/loopback/loopback_run.hpp"
#include "probes/loopback/loopback_trace.hpp"
#include "rdmi_probe_dpa_abi.h"

namespace rdmi::loopback {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBadState = static_cast<int>(doca::Error::bad_state);
/// The smallest DPA completion the probe makes (the samples use 2..16 entries).
constexpr unsigned int kMinCompletionQueueSize = 16;
/// Reports one write iteration can leave in the initiator's completion: the write's (unless
/// OPTIMIZE_REPORTS suppresses it) and the signal's.
constexpr unsigned int kReportsPerIteration = 2;
constexpr std::uint64_t kKernelSpinLimit = std::uint64_t{1} << 22;
constexpr std::size_t kPage = 4096;

/// The initiator's completion holds every report of the run: whether a kernel-launch kernel can
/// drain a completion is unconfirmed, so the queue must not rely on it (power of two, >= 16).
unsigned int completion_queue_size(int iterations) {
    const auto needed = static_cast<unsigned int>(std::max(iterations, 1)) * kReportsPerIteration;
    return std::bit_ceil(std::max(needed, kMinCompletionQueueSize));
}

/// What the probe does not do on the BlueField Arm in DPU mode, said at level 1.
constexpr const char* kDpuArmSkip =
    "the chosen DPA device has network representors (doca_devinfo_rep_cap_is_filter_net_supported "
    "= 1): this is the BlueField Arm side in DPU mode, where DOCA's samples put RDMA on an SF "
    "device with a doca_dpa_device_extend context; this probe implements only the host (NIC "
    "mode) path, so run it on the host";

/// A DOCA call returned an error: the step fails with it.
struct CallFailed {
    std::string call;
    int code = 0;
};

/// The step stops without a DOCA error (skip, timeout, or a failed check of ours).
struct StepStop {
    StepStop(StepOutcome how, std::string why, std::optional<DocaFailure> failure = {})
        : outcome(how), message(std::move(why)), error(std::move(failure)) {}
    StepOutcome outcome;
    std::string message;
    std::optional<DocaFailure> error;
};

// A DOCA call that did not return DOCA_SUCCESS ends the step (CallFailed names the call).
void throw_on_error(const char* call, doca::doca_error_t error) {
    if (error != doca::DOCA_SUCCESS) throw CallFailed{call, static_cast<int>(error)};
}

std::string hex_byte(unsigned value) {
    static constexpr char kDigits[] = "0123456789abcdef";
    return std::string("0x") + kDigits[(value >> 4U) & 0xfU] + kDigits[value & 0xfU];
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

/// "0000:08:00.0" matches "0000:08:00.0" and the short form "08:00.0".
bool pci_matches(const std::string& wanted, const std::string& pci) {
    const std::string w = lower(wanted);
    const std::string p = lower(pci);
    return w == p || (p.size() > w.size() && p.compare(p.size() - w.size(), w.size(), w) == 0 &&
                      p[p.size() - w.size() - 1] == ':');
}

/// Undo actions in creation order; unwound in reverse.
class Teardown {
  public:
    explicit Teardown(const doca::DocaDpaApi& api) : api_(api) {}
    Teardown(const Teardown&) = delete;
    Teardown& operator=(const Teardown&) = delete;
    ~Teardown() { unwind(); }

    void push(const char* call, std::function<doca::doca_error_t()> undo) {
        entries_.push_back(Entry{call, std::move(undo)});
    }

    void unwind() {
        while (!entries_.empty()) {
            Entry entry = std::move(entries_.back());
            entries_.pop_back();
            const doca::doca_error_t error = entry.undo();
            ++released_;
            if (error != 0) {
                errors_.push_back(std::string(entry.call) + ": " + api_.error_name(error) + ": " +
                                  api_.error_description(error));
            }
        }
    }

    [[nodiscard]] int released() const { return released_; }
    [[nodiscard]] const std::vector<std::string>& errors() const { return errors_; }

  private:
    struct Entry {
        const char* call;
        std::function<doca::doca_error_t()> undo;
    };
    const doca::DocaDpaApi& api_;
    std::vector<Entry> entries_;
    std::vector<std::string> errors_;
    int released_ = 0;
};

struct FreeDeleter {
    void operator()(std::uint8_t* p) const { std::free(p); }  // NOLINT: aligned_alloc's pair
};
using HostBuffer = std::unique_ptr<std::uint8_t[], FreeDeleter>;

HostBuffer allocate(std::size_t bytes) {
    const std::size_t rounded = (bytes + kPage - 1) / kPage * kPage;
    // NOLINTNEXTLINE(cppcoreguidelines-owning-memory): released by FreeDeleter
    auto* raw = static_cast<std::uint8_t*>(std::aligned_alloc(kPage, rounded));
    if (raw == nullptr)
        throw StepStop{StepOutcome::fail, "cannot allocate " + std::to_string(bytes) + " bytes"};
    std::memset(raw, 0, rounded);
    return HostBuffer(raw);
}

/// The orchestration of one run. Members hold the objects; `teardown_` owns their release.
class Run {
  public:
    Run(const doca::DocaDpaApi& api, const DpaPlugin& plugin, const LoopbackOptions& options,
        const Deadline& wait_deadline, StepJournal& journal)
        : api_(api),
          plugin_(plugin),
          options_(options),
          wait_deadline_(wait_deadline),
          journal_(journal),
          teardown_(api) {}

    void execute() {
        const int level = options_.level;
        bool ok = step("find-device", 0, [this] { return find_device(); });
        if (ok && level >= 1 && dpu_arm_) {
            journal_.record("open-device", 1, StepOutcome::skip, kDpuArmSkip);
            ok = false;
        }
        ok = ok && level >= 1 && step("open-device", 1, [this] { return open_device(); });
        ok = ok && step("create-dpa", 1, [this] { return create_dpa(); });
        if (options_.lifecycle_selftest) {
            if (ok) {
                step("lifecycle-selftest", 1, [this] { return selftest(); });
            } else if (level < 1) {
                journal_.record("lifecycle-selftest", 1, StepOutcome::skip,
                                "the self-test needs a started DPA context: use --level 1 or more");
            }
        }
        ok = ok && level >= 2 && step("empty-kernel", 2, [this] { return empty_kernel(); });
        if (ok && level >= 3) {
            ok = step("completion-queues", 3, [this] { return completion_queues(); }) &&
                 step("rdma-endpoints", 3, [this] { return rdma_endpoints(); }) &&
                 step("connect", 3, [this] { return connect(); }) &&
                 step("register-memory", 3, [this] { return register_memory(); }) &&
                 step("signal-event", 3, [this] { return signal_event(); }) &&
                 step("status-word", 3, [this] { return status_word(); }) &&
                 step("dpa-clock", 3, [this] { return dpa_clock(); }) &&
                 step("write", 3, [this] { return write(); });
            if (ok) step("verify", 3, [this] { return verify(); });
        }
        teardown_.unwind();
        journal_.update([this](LoopbackVerdict& v) {
            v.teardown.released += teardown_.released();
            v.teardown.errors.insert(v.teardown.errors.end(), teardown_.errors().begin(),
                                     teardown_.errors().end());
        });
    }

  private:
    template <typename Body>
    bool step(const char* id, int level, Body&& body) {
        CallTrace* trace = active_trace();
        if (trace != nullptr) trace->step(id, "begin");
        const bool ok = run_step(id, level, std::forward<Body>(body));
        if (trace != nullptr) trace->step(id, ok ? "pass" : "stop");
        return ok;
    }

    /// The kernel launch, recorded by hand in the trace: its C varargs cannot be forwarded by
    /// a generic trampoline. Every kernel argument is a uint64_t (rdmi_probe_dpa_abi.h).
    template <typename... Args>
    doca::doca_error_t launch(const char* kernel, doca_dpa_func_t* func, Args... args) {
        const auto start = Clock::now();
        const doca::doca_error_t rc = api_.dpa_kernel_launch_update_set(
            dpa_, nullptr, 0, comp_event_, completions_, 1, func, args...);
        if (CallTrace* trace = active_trace()) {
            std::vector<std::string> shown{hex(static_cast<const void*>(dpa_)),
                                           "NULL",
                                           "0",
                                           hex(static_cast<const void*>(comp_event_)),
                                           hex(completions_),
                                           "1",
                                           kernel};
            (shown.push_back(hex(std::uint64_t{args})), ...);
            trace->call("doca_dpa_kernel_launch_update_set", shown, static_cast<int>(rc), "",
                        std::chrono::duration<double, std::micro>(Clock::now() - start).count());
        }
        return rc;
    }

    template <typename Body>
    bool run_step(const char* id, int level, Body&& body) {
        journal_.begin(id, level);
        try {
            journal_.end(StepOutcome::pass, body());
            return true;
        } catch (const CallFailed& failed) {
            DocaFailure error{failed.call, failed.code, api_.error_name(failed.code),
                              api_.error_description(failed.code)};
            journal_.end(StepOutcome::fail,
                         failed.call + " returned " + error.name + ": " + error.description, error);
        } catch (const StepStop& stop) {
            journal_.end(stop.outcome, stop.message, stop.error);
        } catch (const std::exception& e) {
            journal_.end(StepOutcome::fail, std::string("internal error: ") + e.what());
        }
        return false;
    }

    doca_dpa_completion* make_completion(Teardown& teardown, unsigned int queue_size,
                                         doca::dpa_dev_completion_t* handle) {
        doca_dpa_completion* comp = nullptr;
        throw_on_error("doca_dpa_completion_create",
                       api_.dpa_completion_create(dpa_, queue_size, &comp));
        teardown.push("doca_dpa_completion_destroy",
                      [this, comp] { return api_.dpa_completion_destroy(comp); });
        throw_on_error("doca_dpa_completion_start", api_.dpa_completion_start(comp));
        teardown.push("doca_dpa_completion_stop",
                      [this, comp] { return api_.dpa_completion_stop(comp); });
        if (handle != nullptr) {
            throw_on_error("doca_dpa_completion_get_dpa_handle",
                           api_.dpa_completion_get_dpa_handle(comp, handle));
        }
        return comp;
    }

    void start_ctx(Teardown& teardown, doca_ctx* ctx) {
        throw_on_error("doca_ctx_start", api_.ctx_start(ctx));
        teardown.push("doca_ctx_stop", [this, ctx] { return api_.ctx_stop(ctx); });
    }

    /// Polls the event against the wall clock: a short spin, then sleeps growing to 1 ms.
    bool wait_for(doca_sync_event* event, std::uint64_t target) {
        return wait_for(event, target, wait_deadline_);
    }

    bool wait_for(doca_sync_event* event, std::uint64_t target, const Deadline& deadline) {
        const auto spin_until = Clock::now() + std::chrono::microseconds(100);
        auto nap = std::chrono::microseconds(20);
        while (true) {
            std::uint64_t value = 0;
            throw_on_error("doca_sync_event_get", api_.sync_event_get(event, &value));
            if (value >= target) return true;
            if (deadline.expired()) return false;
            if (Clock::now() < spin_until) {
                std::this_thread::yield();
            } else {
                std::this_thread::sleep_for(std::min<std::chrono::microseconds>(
                    nap,
                    std::chrono::duration_cast<std::chrono::microseconds>(deadline.remaining()) +
                        std::chrono::microseconds(1)));
                nap = std::min(nap * 2, std::chrono::microseconds(1000));
            }
        }
    }

    struct Capability {
        const char* symbol;
        doca::fn::devinfo_predicate query;
        const char* need;  ///< what the run needs it for
    };

    /// The predicates the run needs on the device it uses, asked before any object exists so
    /// that an unsupported device is named with the capability, not met as a later call's error.
    [[nodiscard]] std::vector<Capability> capabilities() const {
        std::vector<Capability> caps{{"doca_rdma_cap_task_write_is_supported",
                                      api_.rdma_cap_task_write_is_supported, "no RDMA write"}};
        if (options_.level >= 3) {
            caps.push_back({"doca_sync_event_cap_is_export_to_dpa_supported",
                            api_.sync_event_cap_is_export_to_dpa_supported,
                            "the DPA cannot wait on a sync event"});
            caps.push_back({"doca_sync_event_cap_is_export_to_remote_net_supported",
                            api_.sync_event_cap_is_export_to_remote_net_supported,
                            "the write's signal event cannot be exported to the network"});
            caps.push_back({"doca_sync_event_cap_remote_net_is_create_from_export_supported",
                            api_.sync_event_cap_remote_net_is_create_from_export_supported,
                            "the remote-net signal event cannot be imported"});
            caps.push_back({"doca_sync_event_cap_remote_net_is_export_to_dpa_supported",
                            api_.sync_event_cap_remote_net_is_export_to_dpa_supported,
                            "the DPA cannot signal a remote-net event"});
        }
        return caps;
    }

    /// "doca_x answered DOCA_ERROR_NOT_SUPPORTED (why)" when the predicate says no.
    std::optional<std::string> lacks(doca_devinfo* info, const char* symbol,
                                     doca::fn::devinfo_predicate query, const char* need) const {
        if (query == nullptr) return std::nullopt;
        const doca::doca_error_t answer = query(info);
        if (answer == doca::DOCA_SUCCESS) return std::nullopt;
        return std::string(symbol) + " answered " + api_.error_name(answer) + " (" + need + ")";
    }

    std::optional<std::string> missing_capability(doca_devinfo* info) const {
        for (const auto& cap : capabilities()) {
            if (auto why = lacks(info, cap.symbol, cap.query, cap.need)) return why;
        }
        return std::nullopt;
    }

    /// A predicate this DOCA does not export cannot be asked: the verdict says so.
    void note_unchecked_capabilities() {
        for (const auto& cap : capabilities()) {
            if (cap.query != nullptr) continue;
            journal_.update([&cap](LoopbackVerdict& v) {
                v.notes.push_back(std::string("capability not checked: ") + cap.symbol +
                                  " is not exported by the loaded DOCA libraries");
            });
        }
    }

    std::string find_device() {
        doca_devinfo** list = nullptr;
        std::uint32_t count = 0;
        throw_on_error("doca_devinfo_create_list", api_.devinfo_create_list(&list, &count));
        teardown_.push("doca_devinfo_destroy_list",
                       [this, list] { return api_.devinfo_destroy_list(list); });
        std::vector<std::string> rejected;
        for (std::uint32_t i = 0; i < count; ++i) {
            doca_devinfo* info = list[i];
            char pci[doca::kPciAddrSize + 3] = {};
            char ibdev[doca::kIbdevNameSize + 1] = {};
            if (api_.devinfo_get_pci_addr_str(info, pci) != 0) std::strcpy(pci, "?");
            if (api_.devinfo_get_ibdev_name(info, ibdev, doca::kIbdevNameSize) != 0)
                std::strcpy(ibdev, "?");
            const std::string name = std::string(ibdev) + " (" + pci + ")";
            if (!options_.device.empty() && options_.device != ibdev &&
                !pci_matches(options_.device, pci))
                continue;
            if (auto why =
                    lacks(info, "doca_dpa_cap_is_supported", api_.dpa_cap_is_supported, "no DPA")) {
                rejected.push_back(name + ": " + *why);
                continue;
            }
            doca::doca_pci_func_type func_type = doca::DOCA_PCI_FUNC_TYPE_PF;
            if (options_.device.empty() && api_.devinfo_get_pci_func_type != nullptr &&
                api_.devinfo_get_pci_func_type(info, &func_type) == 0 &&
                func_type != doca::DOCA_PCI_FUNC_TYPE_PF) {
                rejected.push_back(name + ": not a PF");
                continue;
            }
            if (auto why = missing_capability(info)) {
                rejected.push_back(name + ": " + *why);
                continue;
            }
            devinfo_ = info;
            note_unchecked_capabilities();
            std::uint8_t net_representors = 0;
            dpu_arm_ = api_.devinfo_rep_cap_is_filter_net_supported != nullptr &&
                       api_.devinfo_rep_cap_is_filter_net_supported(info, &net_representors) ==
                           doca::DOCA_SUCCESS &&
                       net_representors == 1;
            journal_.update([&](LoopbackVerdict& v) { v.device = LoopbackDevice{pci, ibdev}; });
            return "chose " + name + " among " + std::to_string(count) + " DOCA device(s)";
        }
        std::string why =
            options_.device.empty()
                ? "no DPA-capable PF among " + std::to_string(count) + " DOCA device(s)"
                : "device " + options_.device + " is not a DPA-capable DOCA device";
        for (const auto& r : rejected) why += "; " + r;
        if (!options_.device.empty() && rejected.empty())
            why += " (not among the " + std::to_string(count) + " DOCA devices)";
        throw StepStop{StepOutcome::skip, why};
    }

    std::string open_device() {
        throw_on_error("doca_dev_open", api_.dev_open(devinfo_, &dev_));
        teardown_.push("doca_dev_close", [this] { return api_.dev_close(dev_); });
        return "device opened";
    }

    std::string create_dpa() {
        if (plugin_.app == nullptr)
            throw StepStop{StepOutcome::fail, "the plugin's DPA application handle is NULL"};
        throw_on_error("doca_dpa_create", api_.dpa_create(dev_, &dpa_));
        teardown_.push("doca_dpa_destroy", [this] { return api_.dpa_destroy(dpa_); });
        throw_on_error("doca_dpa_set_app", api_.dpa_set_app(dpa_, plugin_.app));
        throw_on_error("doca_dpa_start", api_.dpa_start(dpa_));
        std::string limit;
        // The limit only bounds the host's wait: without it the run's deadline does.
        unsigned long long seconds = 0;
        if (api_.dpa_get_kernel_max_run_time == nullptr) {
            limit = "; kernel max run time unknown (doca_dpa_get_kernel_max_run_time not exported)";
        } else if (const auto rc = api_.dpa_get_kernel_max_run_time(dpa_, &seconds);
                   rc != doca::DOCA_SUCCESS) {
            limit = "; kernel max run time unknown (doca_dpa_get_kernel_max_run_time returned " +
                    api_.error_name(rc) + ")";
        } else {
            max_run_time_s_ = seconds;
            limit = "; the DPA may terminate a kernel after " + std::to_string(seconds) +
                    " s (doca_dpa_get_kernel_max_run_time)";
        }
        return "DPA context started with the plugin's application" + limit;
    }

    std::string selftest() {
        const bool rdmi = api_.has_rdmi_poster();
        LoopbackSelftest result;
        result.objects = rdmi ? "doca_rdmi_poster" : "doca_rdma";
        result.expected = api_.error_name(kBadState);
        Teardown local(api_);
        doca::doca_error_t late = doca::DOCA_SUCCESS;
        try {
            // Both completions exist before the object, so reverse teardown releases the object
            // first (docs/reference/dpa-lifecycle.md#rdma-endpoints: stop, destroy the context,
            // then its completion).
            doca_dpa_completion* before = make_completion(local, kMinCompletionQueueSize, nullptr);
            doca_dpa_completion* after = make_completion(local, kMinCompletionQueueSize, nullptr);
            late = rdmi ? attach_after_start_on_poster(local, before, after)
                        : attach_after_start_on_rdma(local, before, after);
        } catch (const ResourceExhausted&) {
            // Not a finding of the self-test: the run ends (the objects are released first).
            release_selftest_objects(local);
            throw;
        } catch (...) {
            release_selftest_objects(local);
            journal_.update([&](LoopbackVerdict& v) {
                result.result = Status::fail;
                result.message = "could not set up the disposable objects";
                v.selftest = result;
            });
            throw;
        }
        release_selftest_objects(local);
        const std::string call = rdmi ? "doca_rdmi_poster_dpa_completion_attach (after start)"
                                      : "doca_rdma_dpa_completion_attach (after start)";
        judge_selftest(result, call, late);
        journal_.update([&](LoopbackVerdict& v) { v.selftest = result; });
        if (result.result == Status::fail) {
            std::optional<DocaFailure> error;
            if (late != 0) {
                error = DocaFailure{call, static_cast<int>(late), api_.error_name(late),
                                    api_.error_description(late)};
            }
            throw StepStop{StepOutcome::fail, result.message, error};
        }
        return "on " + result.objects + ": " + result.message;
    }

    // The self-test on a doca_rdmi_poster: attached to `before`, started on the DPA, then
    // attached to `after`, which a library that enforces the lifecycle refuses; that answer.
    doca::doca_error_t attach_after_start_on_poster(Teardown& local, doca_dpa_completion* before,
                                                    doca_dpa_completion* after) {
        doca_verbs_context* verbs = nullptr;
        throw_on_error("doca_verbs_context_create", api_.verbs_context_create(devinfo_, 0, &verbs));
        local.push("doca_verbs_context_destroy",
                   [this, verbs] { return api_.verbs_context_destroy(verbs); });
        doca_rdmi_poster* poster = nullptr;
        throw_on_error("doca_rdmi_poster_create", api_.rdmi_poster_create(verbs, &poster));
        local.push("doca_rdmi_poster_destroy",
                   [this, poster] { return api_.rdmi_poster_destroy(poster); });
        throw_on_error("doca_rdmi_poster_dpa_completion_attach",
                       api_.rdmi_poster_dpa_completion_attach(poster, before));
        doca_ctx* ctx = api_.rdmi_poster_as_ctx(poster);
        if (ctx == nullptr)
            throw StepStop{StepOutcome::fail, "doca_rdmi_poster_as_ctx returned NULL"};
        throw_on_error("doca_ctx_set_datapath_on_dpa", api_.ctx_set_datapath_on_dpa(ctx, dpa_));
        start_ctx(local, ctx);
        return api_.rdmi_poster_dpa_completion_attach(poster, after);
    }

    // The same self-test on a doca_rdma, where the RDMI poster is not exported.
    doca::doca_error_t attach_after_start_on_rdma(Teardown& local, doca_dpa_completion* before,
                                                  doca_dpa_completion* after) {
        doca_rdma* rdma = nullptr;
        throw_on_error("doca_rdma_create", api_.rdma_create(dev_, &rdma));
        local.push("doca_rdma_destroy", [this, rdma] { return api_.rdma_destroy(rdma); });
        doca_ctx* ctx = api_.rdma_as_ctx(rdma);
        if (ctx == nullptr) throw StepStop{StepOutcome::fail, "doca_rdma_as_ctx returned NULL"};
        throw_on_error(
            "doca_rdma_set_permissions",
            api_.rdma_set_permissions(rdma, doca::kAccessLocalReadWrite | doca::kAccessRdmaWrite));
        throw_on_error("doca_ctx_set_datapath_on_dpa", api_.ctx_set_datapath_on_dpa(ctx, dpa_));
        throw_on_error("doca_rdma_dpa_completion_attach",
                       api_.rdma_dpa_completion_attach(rdma, before));
        start_ctx(local, ctx);
        return api_.rdma_dpa_completion_attach(rdma, after);
    }

    // The self-test's objects released, and what their release returned added to the run's
    // teardown.
    void release_selftest_objects(Teardown& local) {
        local.unwind();
        journal_.update([&](LoopbackVerdict& v) {
            v.teardown.released += local.released();
            v.teardown.errors.insert(v.teardown.errors.end(), local.errors().begin(),
                                     local.errors().end());
        });
    }

    // The documented answer to the late attach is DOCA_ERROR_BAD_STATE; any other means the
    // library does not enforce the lifecycle.
    void judge_selftest(LoopbackSelftest& result, const std::string& call,
                        doca::doca_error_t late) const {
        result.returned = api_.error_name(late);
        if (late == kBadState) {
            result.result = Status::pass;
            result.message = call + " returned " + result.returned + ", as documented";
        } else {
            result.result = Status::fail;
            result.message = call + " returned " + result.returned + " (expected " +
                             result.expected +
                             "): the library does not enforce the documented lifecycle";
        }
    }

    std::string empty_kernel() {
        throw_on_error("doca_sync_event_create", api_.sync_event_create(&comp_event_));
        teardown_.push("doca_sync_event_destroy",
                       [this] { return api_.sync_event_destroy(comp_event_); });
        throw_on_error("doca_sync_event_add_publisher_location_dpa",
                       api_.sync_event_add_publisher_location_dpa(comp_event_, dpa_));
        throw_on_error("doca_sync_event_add_subscriber_location_cpu",
                       api_.sync_event_add_subscriber_location_cpu(comp_event_, dev_));
        throw_on_error("doca_sync_event_start", api_.sync_event_start(comp_event_));
        teardown_.push("doca_sync_event_stop",
                       [this] { return api_.sync_event_stop(comp_event_); });
        const auto start = Clock::now();
        ++completions_;
        throw_on_error("doca_dpa_kernel_launch_update_set",
                       launch(RDMI_PROBE_NOOP_KERNEL_SYMBOL, plugin_.noop_kernel));
        if (!wait_for(comp_event_, completions_)) {
            throw StepStop{
                StepOutcome::timeout,
                "the empty kernel's completion event did not arrive before the deadline"};
        }
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
        throw_on_error("doca_dpa_peek_at_last_error", api_.dpa_peek_at_last_error(dpa_));
        return "completion event arrived " + std::to_string(static_cast<long long>(us)) +
               " us after launch";
    }

    std::string completion_queues() {
        const unsigned int size = completion_queue_size(options_.iterations);
        initiator_comp_ = make_completion(teardown_, size, &initiator_comp_handle_);
        target_comp_ = make_completion(teardown_, kMinCompletionQueueSize, nullptr);
        return "two DPA completions started (initiator queue " + std::to_string(size) +
               " entries for " + std::to_string(options_.iterations) +
               " iteration(s), target queue " + std::to_string(kMinCompletionQueueSize) + ")";
    }

    struct Endpoint {
        doca_rdma* rdma = nullptr;
        const void* details = nullptr;
        std::size_t details_size = 0;
        doca_rdma_connection* connection = nullptr;
    };

    void make_endpoint(Endpoint& ep, doca_dpa_completion* comp) {
        throw_on_error("doca_rdma_create", api_.rdma_create(dev_, &ep.rdma));
        doca_rdma* rdma = ep.rdma;
        teardown_.push("doca_rdma_destroy", [this, rdma] { return api_.rdma_destroy(rdma); });
        doca_ctx* ctx = api_.rdma_as_ctx(rdma);
        if (ctx == nullptr) throw StepStop{StepOutcome::fail, "doca_rdma_as_ctx returned NULL"};
        throw_on_error(
            "doca_rdma_set_permissions",
            api_.rdma_set_permissions(rdma, doca::kAccessLocalReadWrite | doca::kAccessRdmaWrite |
                                                doca::kAccessRdmaRead | doca::kAccessRdmaAtomic));
        throw_on_error("doca_rdma_set_grh_enabled", api_.rdma_set_grh_enabled(rdma, 1));
        throw_on_error("doca_ctx_set_datapath_on_dpa", api_.ctx_set_datapath_on_dpa(ctx, dpa_));
        throw_on_error("doca_rdma_dpa_completion_attach",
                       api_.rdma_dpa_completion_attach(rdma, comp));
        start_ctx(teardown_, ctx);
        throw_on_error("doca_rdma_export",
                       api_.rdma_export(rdma, &ep.details, &ep.details_size, &ep.connection));
    }

    std::string rdma_endpoints() {
        make_endpoint(initiator_, initiator_comp_);
        make_endpoint(target_, target_comp_);
        throw_on_error("doca_rdma_get_dpa_handle",
                       api_.rdma_get_dpa_handle(initiator_.rdma, &rdma_handle_));
        return "initiator and target RDMA contexts started on the DPA datapath";
    }

    std::string connect() {
        throw_on_error("doca_rdma_connect",
                       api_.rdma_connect(initiator_.rdma, target_.details, target_.details_size,
                                         initiator_.connection));
        throw_on_error("doca_rdma_connect",
                       api_.rdma_connect(target_.rdma, initiator_.details, initiator_.details_size,
                                         target_.connection));
        throw_on_error("doca_rdma_connection_get_id",
                       api_.rdma_connection_get_id(initiator_.connection, &connection_id_));
        return "loopback connection up (initiator connection id " + std::to_string(connection_id_) +
               ")";
    }

    /// Registers a host buffer for the device; `out` (when given) receives the mmap.
    doca::dpa_dev_mmap_t register_buffer(std::uint8_t* buffer, doca_mmap** out) {
        doca_mmap* mmap = nullptr;
        throw_on_error("doca_mmap_create", api_.mmap_create(&mmap));
        teardown_.push("doca_mmap_destroy", [this, mmap] { return api_.mmap_destroy(mmap); });
        throw_on_error(
            "doca_mmap_set_permissions",
            api_.mmap_set_permissions(mmap, doca::kAccessLocalReadWrite | doca::kAccessRdmaWrite |
                                                doca::kAccessRdmaRead));
        throw_on_error("doca_mmap_set_memrange",
                       api_.mmap_set_memrange(mmap, buffer, options_.bytes));
        throw_on_error("doca_mmap_add_dev", api_.mmap_add_dev(mmap, dev_));
        throw_on_error("doca_mmap_start", api_.mmap_start(mmap));
        teardown_.push("doca_mmap_stop", [this, mmap] { return api_.mmap_stop(mmap); });
        doca::dpa_dev_mmap_t handle = 0;
        throw_on_error("doca_mmap_dev_get_dpa_handle",
                       api_.mmap_dev_get_dpa_handle(mmap, dev_, &handle));
        if (out != nullptr) *out = mmap;
        return handle;
    }

    /// The remote key of the write: the responder's mmap exported for RDMA and imported on the
    /// initiator's side, as the all-to-all application does for a peer's buffer. The imported
    /// mmap is used without start and destroyed without stop (same source).
    doca::dpa_dev_mmap_t import_buffer(doca_mmap* responder) {
        const void* desc = nullptr;
        std::size_t desc_len = 0;
        throw_on_error("doca_mmap_export_rdma",
                       api_.mmap_export_rdma(responder, dev_, &desc, &desc_len));
        doca_mmap* imported = nullptr;
        throw_on_error("doca_mmap_create_from_export",
                       api_.mmap_create_from_export(nullptr, desc, desc_len, dev_, &imported));
        teardown_.push("doca_mmap_destroy",
                       [this, imported] { return api_.mmap_destroy(imported); });
        doca::dpa_dev_mmap_t handle = 0;
        throw_on_error("doca_mmap_dev_get_dpa_handle",
                       api_.mmap_dev_get_dpa_handle(imported, dev_, &handle));
        return handle;
    }

    std::string register_memory() {
        src_ = allocate(options_.bytes);
        dst_ = allocate(options_.bytes);
        std::uint32_t x = options_.seed == 0 ? 1 : options_.seed;
        for (std::size_t i = 0; i < options_.bytes; ++i) {
            x ^= x << 13U;
            x ^= x >> 17U;
            x ^= x << 5U;
            src_[i] = static_cast<std::uint8_t>(x | 1U);  // never 0: a zero dst byte is a miss
        }
        src_mmap_ = register_buffer(src_.get(), nullptr);
        doca_mmap* responder = nullptr;
        register_buffer(dst_.get(), &responder);
        dst_mmap_ = import_buffer(responder);
        return std::to_string(options_.bytes) +
               "-byte source (seeded pattern) registered; destination (zeroed) registered, "
               "exported and imported as the write's remote memory";
    }

    std::string signal_event() {
        throw_on_error("doca_sync_event_create", api_.sync_event_create(&signal_event_));
        teardown_.push("doca_sync_event_destroy",
                       [this] { return api_.sync_event_destroy(signal_event_); });
        throw_on_error("doca_sync_event_add_publisher_location_remote_net",
                       api_.sync_event_add_publisher_location_remote_net(signal_event_));
        throw_on_error("doca_sync_event_add_subscriber_location_dpa",
                       api_.sync_event_add_subscriber_location_dpa(signal_event_, dpa_));
        throw_on_error("doca_sync_event_start", api_.sync_event_start(signal_event_));
        teardown_.push("doca_sync_event_stop",
                       [this] { return api_.sync_event_stop(signal_event_); });
        throw_on_error("doca_sync_event_get_dpa_handle",
                       api_.sync_event_get_dpa_handle(signal_event_, dpa_, &signal_handle_));
        const std::uint8_t* blob = nullptr;
        std::size_t blob_size = 0;
        throw_on_error("doca_sync_event_export_to_remote_net",
                       api_.sync_event_export_to_remote_net(signal_event_, &blob, &blob_size));
        doca_sync_event_remote_net* remote = nullptr;
        throw_on_error(
            "doca_sync_event_remote_net_create_from_export",
            api_.sync_event_remote_net_create_from_export(dev_, blob, blob_size, &remote));
        teardown_.push("doca_sync_event_remote_net_destroy",
                       [this, remote] { return api_.sync_event_remote_net_destroy(remote); });
        throw_on_error(
            "doca_sync_event_remote_net_get_dpa_handle",
            api_.sync_event_remote_net_get_dpa_handle(remote, dpa_, &remote_signal_handle_));
        return "remote-net signal event ready (DPA subscriber)";
    }

    std::string status_word() {
        throw_on_error("doca_dpa_mem_alloc",
                       api_.dpa_mem_alloc(dpa_, sizeof(std::uint64_t), &status_ptr_));
        teardown_.push("doca_dpa_mem_free",
                       [this] { return api_.dpa_mem_free(dpa_, status_ptr_); });
        throw_on_error("doca_dpa_memset",
                       api_.dpa_memset(dpa_, status_ptr_, 0, sizeof(std::uint64_t)));
        return "status word allocated on the DPA heap";
    }

    /// Whether the kernel run-time limit shortens the host's wait for a launch. A limit beyond
    /// any run's deadline cannot; leaving it out also keeps "+ 1 s" and the conversion to
    /// milliseconds from overflowing on 2^63 s or 2^64-1 s.
    [[nodiscard]] bool limit_bounds_wait() const {
        constexpr unsigned long long kLongestLimitS = 1'000'000;
        return max_run_time_s_ && *max_run_time_s_ < kLongestLimitS;
    }

    /// A kernel past the DPA's run-time limit is terminated and never completes: wait for that
    /// long plus a margin, not for the whole run's deadline.
    [[nodiscard]] Deadline launch_deadline() const {
        if (!limit_bounds_wait()) return wait_deadline_;
        return wait_deadline_.capped(
            std::chrono::seconds(static_cast<long long>(*max_run_time_s_) + 1));
    }

    /// Times the clock kernel with growing spin counts until one launch is long next to its
    /// overhead, and turns the write kernel's wait budget into DPA timer ticks.
    std::string dpa_clock() {
        std::vector<ClockSample> samples;
        std::uint64_t spins = kCalibrationFirstSpins;
        for (int i = 0; i < kCalibrationLaunches; ++i, spins <<= 1U) {
            throw_on_error("doca_dpa_memset",
                           api_.dpa_memset(dpa_, status_ptr_, 0, sizeof(std::uint64_t)));
            const auto start = Clock::now();
            ++completions_;
            throw_on_error("doca_dpa_kernel_launch_update_set",
                           launch(RDMI_PROBE_CLOCK_KERNEL_SYMBOL, plugin_.clock_kernel,
                                  std::uint64_t{status_ptr_}, spins));
            if (!wait_for(comp_event_, completions_, launch_deadline())) {
                throw StepStop{StepOutcome::timeout,
                               "timed launch " + std::to_string(i + 1) + " (" +
                                   std::to_string(spins) +
                                   " spins): the completion event did not arrive"};
            }
            const auto wall = Clock::now() - start;
            throw_on_error("doca_dpa_peek_at_last_error", api_.dpa_peek_at_last_error(dpa_));
            std::uint64_t ticks = 0;
            throw_on_error("doca_dpa_d2h_memcpy",
                           api_.dpa_d2h_memcpy(dpa_, &ticks, status_ptr_, sizeof ticks));
            samples.push_back({ticks, std::chrono::duration_cast<std::chrono::nanoseconds>(wall)});
            if (wall >= kCalibrationTarget) break;
        }
        const auto budget = kernel_wait_budget(max_run_time_s_, wait_deadline_.remaining());
        // With the run's deadline gone the budget would be 1 tick, and the write kernel's
        // early stop would read as a write that did not complete: say what ran out.
        if (budget <= std::chrono::nanoseconds{0} && wait_deadline_.expired()) {
            throw StepStop{StepOutcome::timeout,
                           "the run's deadline passed during " + std::to_string(samples.size()) +
                               " timed launch(es): no time is left for the write kernel's wait"};
        }
        const auto bound = kernel_time_bound(samples, budget);
        tick_budget_ = bound.ticks;
        tick_budget_text_ = bound.ticks == 0
                                ? std::string("no time bound (the DPA timer gave no usable count)")
                                : "a budget of " + std::to_string(bound.ticks) + " DPA timer ticks";
        return bound.description;
    }

    void check_status(std::uint64_t status, int iteration) {
        const std::string at = "iteration " + std::to_string(iteration + 1) + ": ";
        char hex[24];
        (void)std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(status));
        // The kernel writes only the code, the drained count and the last completion type (bits
        // 0-39): anything above, or a code of 0 with other bits set, is not its word.
        const bool foreign =
            (status >> 40) != 0 ||
            (RDMI_PROBE_STATUS_CODE(status) == RDMI_PROBE_STATUS_NOT_RUN && status != 0);
        if (foreign) {
            throw StepStop{StepOutcome::fail,
                           at + "unexpected kernel status word " + hex +
                               " (not what the write kernel writes: bits 40-63 are 0 and a code "
                               "of 0 comes with nothing else)"};
        }
        switch (RDMI_PROBE_STATUS_CODE(status)) {
            case RDMI_PROBE_STATUS_OK:
                return;
            case RDMI_PROBE_STATUS_NOT_RUN:
                throw StepStop{
                    StepOutcome::fail,
                    at + "the status word is still 0: the kernel did not run to its end"};
            case RDMI_PROBE_STATUS_SIGNAL_TIMEOUT:
                throw StepStop{StepOutcome::fail,
                               at + "the kernel's bounded wait for the RDMA signal ran out: the "
                                    "write or the signal after it did not complete"};
            case RDMI_PROBE_STATUS_SEND_ERROR:
                throw StepStop{StepOutcome::fail, at + "the DPA saw a send-error completion"};
            case RDMI_PROBE_STATUS_TICK_BUDGET:
                throw StepStop{StepOutcome::fail,
                               at + "the kernel's wait for the RDMA signal used up " +
                                   tick_budget_text_ +
                                   ": the write or the signal after it did not complete"};
            default:
                throw StepStop{StepOutcome::fail, at + "unexpected kernel status word " + hex};
        }
    }

    std::string write() {
        std::vector<double> latencies;
        for (int i = 0; i < options_.iterations; ++i) {
            journal_.iteration(i, options_.iterations);
            std::memset(dst_.get(), 0, options_.bytes);
            throw_on_error("doca_dpa_memset",
                           api_.dpa_memset(dpa_, status_ptr_, 0, sizeof(std::uint64_t)));
            const std::uint64_t signal_value = static_cast<std::uint64_t>(i) + 1;
            const auto start = Clock::now();
            ++completions_;
            throw_on_error(
                "doca_dpa_kernel_launch_update_set",
                launch(RDMI_PROBE_WRITE_KERNEL_SYMBOL, plugin_.write_kernel,
                       std::uint64_t{rdma_handle_}, std::uint64_t{connection_id_},
                       std::uint64_t{dst_mmap_}, reinterpret_cast<std::uint64_t>(dst_.get()),
                       std::uint64_t{src_mmap_}, reinterpret_cast<std::uint64_t>(src_.get()),
                       std::uint64_t{options_.bytes}, std::uint64_t{remote_signal_handle_},
                       std::uint64_t{signal_handle_}, signal_value, std::uint64_t{status_ptr_},
                       std::uint64_t{initiator_comp_handle_}, kKernelSpinLimit,
                       std::uint64_t{RDMI_PROBE_SUBMIT_FLAGS}, tick_budget_));
            if (!wait_for(comp_event_, completions_, launch_deadline())) {
                const bool past_limit = limit_bounds_wait() && !wait_deadline_.expired();
                throw StepStop{
                    StepOutcome::timeout,
                    "iteration " + std::to_string(i + 1) + "/" +
                        std::to_string(options_.iterations) +
                        (past_limit ? ": the completion event did not arrive within the kernel "
                                      "max run time (" +
                                          std::to_string(*max_run_time_s_) +
                                          " s) plus 1 s: the DPA may have terminated the kernel"
                                    : ": the completion event did not arrive before the deadline "
                                      "(the kernel did not finish)")};
            }
            latencies.push_back(
                std::chrono::duration<double, std::micro>(Clock::now() - start).count());
            throw_on_error("doca_dpa_peek_at_last_error", api_.dpa_peek_at_last_error(dpa_));
            std::uint64_t status = 0;
            throw_on_error("doca_dpa_d2h_memcpy",
                           api_.dpa_d2h_memcpy(dpa_, &status, status_ptr_, sizeof status));
            check_status(status, i);
            if (const auto* diff =
                    std::mismatch(src_.get(), src_.get() + options_.bytes, dst_.get()).first;
                diff != src_.get() + options_.bytes) {
                mismatch_ = static_cast<std::size_t>(diff - src_.get());
                mismatch_iteration_ = i;
                break;
            }
        }
        record_measurements(latencies);
        return std::to_string(latencies.size()) +
               " kernel launch(es) completed; bound per launch: the kernel polls at most 2^22 "
               "times with " +
               tick_budget_text_ + ", the host waits " +
               (limit_bounds_wait() ? "the kernel max run time (" +
                                          std::to_string(*max_run_time_s_) + " s) plus 1 s"
                                    : std::string("until the run's deadline"));
    }

    void record_measurements(std::vector<double> latencies) {
        if (latencies.empty()) return;
        std::sort(latencies.begin(), latencies.end());
        LoopbackMeasurements m;
        m.bytes = options_.bytes;
        m.iterations = static_cast<int>(latencies.size());
        m.latency_min_us = latencies.front();
        m.latency_max_us = latencies.back();
        const std::size_t mid = latencies.size() / 2;
        m.latency_median_us = latencies.size() % 2 == 1
                                  ? latencies[mid]
                                  : (latencies[mid - 1] + latencies[mid]) / 2.0;
        double total_us = 0;
        for (double us : latencies) total_us += us;
        if (options_.bytes >= kLoopbackBandwidthMinBytes && total_us > 0) {
            m.bandwidth_mb_s =
                static_cast<double>(options_.bytes) * static_cast<double>(m.iterations) / total_us;
        }
        journal_.update([&m](LoopbackVerdict& v) { v.measurements = m; });
    }

    std::string verify() {
        if (mismatch_) {
            const std::size_t at = *mismatch_;
            journal_.update([at](LoopbackVerdict& v) { v.mismatch_offset = at; });
            throw StepStop{StepOutcome::fail,
                           "iteration " + std::to_string(mismatch_iteration_ + 1) +
                               ": destination differs from the source at byte " +
                               std::to_string(at) + " (expected " + hex_byte(src_[at]) + ", got " +
                               hex_byte(dst_[at]) + ")"};
        }
        return std::to_string(options_.bytes) + " bytes verified byte for byte in " +
               std::to_string(options_.iterations) + " iteration(s)";
    }

    const doca::DocaDpaApi& api_;
    const DpaPlugin& plugin_;
    const LoopbackOptions& options_;
    Deadline wait_deadline_;
    StepJournal& journal_;
    // Buffers are declared before teardown_ so that they outlive the mmaps registering them.
    HostBuffer src_;
    HostBuffer dst_;
    Teardown teardown_;
    doca_devinfo* devinfo_ = nullptr;
    doca_dev* dev_ = nullptr;
    doca_dpa* dpa_ = nullptr;
    doca_sync_event* comp_event_ = nullptr;
    std::uint64_t completions_ = 0;
    doca_dpa_completion* initiator_comp_ = nullptr;
    doca_dpa_completion* target_comp_ = nullptr;
    doca::dpa_dev_completion_t initiator_comp_handle_ = 0;
    Endpoint initiator_;
    Endpoint target_;
    doca::dpa_dev_rdma_t rdma_handle_ = 0;
    std::uint32_t connection_id_ = 0;
    doca::dpa_dev_mmap_t src_mmap_ = 0;
    doca::dpa_dev_mmap_t dst_mmap_ = 0;
    doca_sync_event* signal_event_ = nullptr;
    doca::dpa_dev_sync_event_t signal_handle_ = 0;
    doca::dpa_dev_sync_event_remote_net_t remote_signal_handle_ = 0;
    doca::dpa_dev_uintptr_t status_ptr_ = 0;
    std::optional<std::size_t> mismatch_;
    int mismatch_iteration_ = 0;
    std::optional<unsigned long long> max_run_time_s_;
    std::uint64_t tick_budget_ = 0;  ///< the write kernel's time bound in DPA timer ticks; 0: none
    std::string tick_budget_text_ = "no time bound (the DPA timer was not calibrated)";
    bool dpu_arm_ = false;  ///< the chosen PF has network representors: BlueField Arm, DPU mode
};

}  // namespace

LoopbackVerdict run_loopback(const doca::DocaDpaApi& api, const DpaPlugin& plugin,
                             const LoopbackOptions& options, const Deadline& wait_deadline,
                             StepJournal& journal) {
    journal.update([&options](LoopbackVerdict& v) { v.level_requested = options.level; });
    {
        Run run(api, plugin, options, wait_deadline, journal);
        run.execute();
    }
    LoopbackVerdict verdict = journal.snapshot();
    finish_verdict(verdict);
    return verdict;
}

}  // namespace rdmi::loopback
