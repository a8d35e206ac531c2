// The loopback verdict: outcome and layer names, the error taxonomy
// (docs/reference/error-codes.md#error-taxonomy), the unconfirmed facts behind each step
// (docs/reference/dpa-lifecycle.md#not-confirmed), and deriving the verdict from the steps.
#include <algorithm>
#include <array>

#include "probes/loopback/loopback.hpp"
#include "probes/loopback/loopback_run.hpp"

namespace rdmi {

std::string_view to_string(StepOutcome outcome) {
    switch (outcome) {
        case StepOutcome::pass:
            return "pass";
        case StepOutcome::fail:
            return "fail";
        case StepOutcome::skip:
            return "skip";
        case StepOutcome::timeout:
            return "timeout";
    }
    return "fail";
}

std::string_view to_string(Layer layer) {
    switch (layer) {
        case Layer::install:
            return "install";
        case Layer::version:
            return "version";
        case Layer::driver:
            return "driver";
        case Layer::verbs:
            return "verbs";
        case Layer::dpa:
            return "DPA";
        case Layer::rdmi:
            return "RDMI";
    }
    return "DPA";
}

namespace loopback {
namespace {

constexpr int kBadState = static_cast<int>(doca::Error::bad_state);
constexpr int kInvalidValue = static_cast<int>(doca::Error::invalid_value);
constexpr int kNotSupported = static_cast<int>(doca::Error::not_supported);
constexpr int kNoMemory = static_cast<int>(doca::Error::no_memory);
constexpr int kDriver = static_cast<int>(doca::Error::driver);
constexpr int kIoFailed = static_cast<int>(doca::Error::io_failed);

struct StepLayer {
    std::string_view step;
    Layer layer;
};

constexpr std::array kStepLayers{
    StepLayer{"locate-libraries", Layer::install},
    StepLayer{"locate-plugin", Layer::install},
    StepLayer{"load-libraries", Layer::install},
    StepLayer{"resolve-symbols", Layer::version},
    StepLayer{"load-plugin", Layer::install},
    StepLayer{"find-device", Layer::driver},
    StepLayer{"open-device", Layer::driver},
    StepLayer{"create-dpa", Layer::dpa},
    StepLayer{"empty-kernel", Layer::dpa},
    StepLayer{"completion-queues", Layer::dpa},
    StepLayer{"rdma-endpoints", Layer::verbs},
    StepLayer{"connect", Layer::verbs},
    StepLayer{"register-memory", Layer::verbs},
    StepLayer{"signal-event", Layer::dpa},
    StepLayer{"status-word", Layer::dpa},
    StepLayer{"dpa-clock", Layer::dpa},
    StepLayer{"write", Layer::dpa},
    StepLayer{"verify", Layer::dpa},
};

constexpr std::string_view kNoteMarshalling =
    "unconfirmed: DPA kernel arguments are passed as uint64_t varargs of "
    "doca_dpa_kernel_launch_update_set; the marshalling rule is not documented "
    "(docs/reference/dpa-lifecycle.md#kernel-arguments)";
constexpr std::string_view kNoteSignal =
    "unconfirmed: the loopback write is not a shipped DOCA sample; completion is signalled the "
    "dpa_all_to_all way (RDMA signal to a remote-net sync event after the write on the same RC "
    "connection), which is derived, not tested on hardware "
    "(docs/reference/dpa-lifecycle.md#loopback-sequence)";
constexpr std::string_view kNoteCompletion =
    "unconfirmed: whether a DPA completion must be attached to every DPA-datapath RDMA context, "
    "which completion type an RDMA write reports, whether a kernel-launch kernel can drain a "
    "completion (the initiator's queue is sized for every report of the run instead), and "
    "whether DOCA accepts that size for large --iterations "
    "(docs/reference/dpa-lifecycle.md#completions)";
constexpr std::string_view kNotePlugin =
    "unconfirmed: loading a DPA application from a dlopen'ed plugin that links the dpacc archive "
    "(docs/reference/install-layout.md#dpacc-and-the-host-stub)";
constexpr std::string_view kNoteRdmi =
    "unconfirmed: the RDMI poster signatures come from NVIDIA's skills documents only and "
    "doca_rdmi_poster_as_ctx may not exist (docs/reference/symbol-stability.md#rdmi-names)";
constexpr std::string_view kNoteDpuArm =
    "not handled: on the BlueField Arm in DPU mode RDMA needs an SF device and "
    "doca_dpa_device_extend (samples/doca_dpa); the probe detects that side through "
    "doca_devinfo_rep_cap_is_filter_net_supported and stops at level 1, and otherwise opens one "
    "PF for both";

constexpr std::string_view kNoteImport =
    "unconfirmed: the write's remote key is the destination exported with doca_mmap_export_rdma "
    "and imported with doca_mmap_create_from_export on the same device, as dpa_all_to_all does "
    "for a peer's buffer, posted with FLUSH | OPTIMIZE_REPORTS; never run on hardware";
constexpr std::string_view kNoteRunTime =
    "unconfirmed: the kernel bounds its own wait by a poll count (2^22) and by DPA timer ticks "
    "(__dpa_thread_time), converted from time with a rate measured against the host clock (a "
    "lower bound); DOCA 3.3's time_sync application reads __dpa_thread_time() as microseconds in "
    "a DPA RPC on the BlueField, a unit no sample states for a kernel-launch kernel, so the probe "
    "still measures; the host's wait is bounded by doca_dpa_get_kernel_max_run_time";

bool failed(const LoopbackStep& step) {
    return step.outcome == StepOutcome::fail || step.outcome == StepOutcome::timeout;
}

}  // namespace

Layer layer_of(std::string_view step, int error, bool rdmi_objects) {
    if (error == kDriver) return Layer::driver;
    if (step == "lifecycle-selftest") return rdmi_objects ? Layer::rdmi : Layer::verbs;
    for (const auto& entry : kStepLayers) {
        if (entry.step == step) return entry.layer;
    }
    return Layer::dpa;
}

std::string first_action(Layer layer, int error, StepOutcome outcome) {
    if (outcome == StepOutcome::timeout) {
        return "a DOCA call or the DPA did not answer before the deadline: capture dmesg and the "
               "device state, then retry with a larger --timeout";
    }
    switch (error) {
        case kBadState:
            return "re-walk the lifecycle order";
        case kInvalidValue:
            return "re-check create/configure arguments";
        case kNotSupported:
            return "check the symbol audit and the device's DPA capability";
        case kNoMemory:
            return "inspect verbs resource limits";
        case kDriver:
            return "stop; capture dmesg and device state; not an RDMI problem";
        case kIoFailed:
            return "read the completion's error, not the submit return";
        default:
            break;
    }
    switch (layer) {
        case Layer::install:
            return "install the DOCA runtime (doca-common, doca-dpa, doca-rdma) and the DPA "
                   "plugin, "
                   "then run `rdmi-probe report`";
        case Layer::version:
            return "check the symbol audit: the loaded libraries lack a function this probe needs "
                   "(older or mixed DOCA versions)";
        case Layer::driver:
            return "check mlx5_core, the firmware and `rdmi-probe report`; capture dmesg";
        case Layer::verbs:
            return "check the port state, link layer and GID table of the device";
        case Layer::dpa:
            return "check doca_dpa_peek_at_last_error, /tmp/doca_dpa_fatal.<pid>.crash and that "
                   "the "
                   "plugin was built for this DPA (-mcpu)";
        case Layer::rdmi:
            return "re-walk the lifecycle order";
    }
    return "re-walk the lifecycle order";
}

std::vector<std::string> unconfirmed_notes(std::string_view step, bool rdmi_objects) {
    std::vector<std::string> notes;
    auto add = [&notes](std::string_view note) { notes.emplace_back(note); };
    if (step == "load-plugin" || step == "create-dpa") {
        add(kNotePlugin);
    } else if (step == "completion-queues" || step == "rdma-endpoints" || step == "connect") {
        add(kNoteCompletion);
        add(kNoteDpuArm);
    } else if (step == "register-memory") {
        add(kNoteImport);
    } else if (step == "dpa-clock") {
        add(kNoteMarshalling);
        add(kNoteRunTime);
    } else if (step == "signal-event" || step == "write" || step == "verify" ||
               step == "status-word") {
        add(kNoteSignal);
        add(kNoteMarshalling);
        add(kNoteCompletion);
        if (step == "write" || step == "verify") {
            add(kNoteImport);
            add(kNoteRunTime);
        }
    } else if (step == "empty-kernel") {
        add(kNotePlugin);
    } else if (step == "lifecycle-selftest" && rdmi_objects) {
        add(kNoteRdmi);
    } else if (step == "open-device" || step == "find-device") {
        add(kNoteDpuArm);
    }
    return notes;
}

void finish_verdict(LoopbackVerdict& verdict) {
    const bool rdmi_objects = verdict.selftest && verdict.selftest->objects == "doca_rdmi_poster";
    verdict.level_reached = -1;
    for (int level = 0; level <= kLoopbackMaxLevel; ++level) {
        bool seen = false;
        bool all_pass = true;
        for (const auto& step : verdict.steps) {
            if (step.id == "lifecycle-selftest" || step.level > level) continue;
            seen = seen || step.level == level;
            all_pass = all_pass && step.outcome == StepOutcome::pass;
        }
        if (!seen || !all_pass) break;
        verdict.level_reached = level;
    }
    const auto fail_it = std::find_if(verdict.steps.begin(), verdict.steps.end(), failed);
    const auto skip_it =
        std::find_if(verdict.steps.begin(), verdict.steps.end(),
                     [](const LoopbackStep& step) { return step.outcome == StepOutcome::skip; });
    verdict.notes.clear();
    if (fail_it != verdict.steps.end()) {
        verdict.result = Status::fail;
        verdict.failed_step = fail_it->id;
        verdict.error = fail_it->error;
        const int code = fail_it->error ? fail_it->error->code : 0;
        verdict.layer = layer_of(fail_it->id, code, rdmi_objects);
        verdict.first_action = first_action(*verdict.layer, code, fail_it->outcome);
        // doca_dpa_peek_at_last_error's BAD_STATE means "the DPA crashed", not a lifecycle slip.
        if (fail_it->error && fail_it->error->call == "doca_dpa_peek_at_last_error" &&
            code == kBadState) {
            verdict.layer = Layer::dpa;
            verdict.first_action =
                "the DPA hit a fatal error: read /tmp/doca_dpa_fatal.<pid>.crash and the DPA log, "
                "and check the kernel's arguments";
        }
        if (fail_it->id == "lifecycle-selftest" && code == 0) {
            verdict.first_action =
                "the installed library does not enforce the documented lifecycle: report it with "
                "the DOCA version, and do not rely on DOCA_ERROR_BAD_STATE to catch ordering bugs";
        }
        verdict.reason = fail_it->id + ": " + fail_it->message;
        verdict.notes = unconfirmed_notes(fail_it->id, rdmi_objects);
        return;
    }
    verdict.failed_step.reset();
    verdict.error.reset();
    verdict.layer.reset();
    verdict.first_action.clear();
    if (skip_it != verdict.steps.end()) {
        verdict.result = Status::skip;
        verdict.reason = skip_it->id + ": " + skip_it->message;
        return;
    }
    verdict.result = verdict.steps.empty() ? Status::skip : Status::pass;
    static constexpr std::array<std::string_view, 4> kPassed{
        "the DOCA libraries, the DPA plugin and a DPA-capable device are present",
        "the device opened and a DPA context started with the plugin's application",
        "an empty DPA kernel ran and its completion event arrived",
        "a DPA kernel's RDMA write over a loopback connection landed and was verified byte for "
        "byte"};
    verdict.reason = verdict.level_reached >= 0
                         ? "level " + std::to_string(verdict.level_reached) + ": " +
                               std::string(kPassed[static_cast<std::size_t>(verdict.level_reached)])
                         : "nothing ran";
    if (rdmi_objects) verdict.notes.emplace_back(kNoteRdmi);
}

}  // namespace loopback

Check loopback_check(const LoopbackVerdict& verdict) {
    Check check{finding::dpa_loopback, verdict.result, "", "", {}};
    check.message =
        "DPA loopback (level " + std::to_string(verdict.level_requested) + "): " + verdict.reason;
    if (verdict.result == Status::fail) {
        check.remediation = verdict.first_action;
    }
    check.sources.push_back(Provenance{"api", "doca_dpa_kernel_launch_update_set"});
    return check;
}

}  // namespace rdmi
