// The error catalog's data. Names, numbers and descriptions are those of doca_error.h; the layer,
// meaning and checks are this project's reading of them for DPA and RDMI code. A call cause is
// "documented" when the call's header lists that error with that meaning, else "inferred" from
// the lifecycle rules of DOCA's context, DPA, mmap and RDMI documentation
// (docs/reference/error-codes.md#call-causes).
#include "doca_errors/doca_error_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "api/doca_types.hpp"

namespace rdmi::doca {
namespace {

using L = ErrorLayer;

// Commands repeated below; each checks what its line says.
constexpr std::string_view kSelftest = "rdmi-probe loopback --level 1 --lifecycle-selftest";
constexpr std::string_view kSymbols = "rdmi-probe symbols";
constexpr std::string_view kCaps = "rdmi-probe caps";
constexpr std::string_view kEnv = "rdmi-probe env";
constexpr std::string_view kConsistent = "rdmi-probe check --require-consistent";
constexpr std::string_view kDpa = "rdmi-probe check --require-dpa";
constexpr std::string_view kPort = "rdmi-probe check --require-port-active";
constexpr std::string_view kState = "rdmi-probe state";
constexpr std::string_view kReport = "rdmi-probe report";
constexpr std::string_view kLevel2 = "rdmi-probe loopback --level 2";
constexpr std::string_view kLevel3 = "rdmi-probe loopback --level 3";

constexpr ErrorCheck kOrder{
    "the install enforces the documented lifecycle (attach after start "
    "gives DOCA_ERROR_BAD_STATE)",
    kSelftest};
constexpr ErrorCheck kSymbolAudit{
    "the loaded DOCA exports the functions the program calls, and "
    "which of them are EXPERIMENTAL",
    kSymbols};
constexpr ErrorCheck kDeviceCaps{"the device's DPA, RDMA and sync-event capabilities", kCaps};
constexpr ErrorCheck kHasDpa{"a device with a DPA is present", kDpa};
constexpr ErrorCheck kVersions{
    "pkg-config, applications/VERSION and the runtime library agree "
    "on one DOCA version",
    kConsistent};
constexpr ErrorCheck kHost{
    "kernel modules (mlx5_core, mlx5_ib, ib_uverbs), firmware and device "
    "state",
    kState};
constexpr ErrorCheck kAll{"the whole environment in one pass (install, devices, verbs, DOCA)",
                          kReport};
constexpr ErrorCheck kKernel{"a DPA kernel launches and completes on this device", kLevel2};
constexpr ErrorCheck kWrite{"a DPA kernel's RDMA write lands over a loopback connection", kLevel3};
constexpr ErrorCheck kLink{"the device's port is up (state ACTIVE, physical state LinkUp)", kPort};
constexpr ErrorCheck kInstall{"the DOCA install: modules, versions, prefix", kEnv};

struct Row {
    L layer;
    std::string_view meaning;
    std::array<ErrorCheck, 3> checks;
};

// Indexed by the error number; names and descriptions come from doca_types.cpp.
const std::array<Row, 32> kRows{{
    /* 0 SUCCESS */ {L::none, "not an error", {}},
    /* 1 UNKNOWN */
    {L::internal,
     "DOCA could not classify the failure: look at the DOCA log and at what ran just before",
     {kAll, kHost, kKernel}},
    /* 2 NOT_PERMITTED */
    {L::below_doca,
     "the operation is not permitted: on an object in the wrong state "
     "(doca_mmap_dev_get_dpa_handle "
     "on an mmap not started), or refused by the OS or the device (device files, capabilities "
     "such as CAP_NET_RAW, a firmware setting)",
     {kHost, kOrder, kDeviceCaps}},
    /* 3 IN_USE */
    {L::lifecycle_order,
     "the object is still referenced: tear down in reverse order (stop, destroy children, then "
     "the parent), or another process holds the resource",
     {kOrder, kAll, kHost}},
    /* 4 NOT_SUPPORTED */
    {L::unsupported,
     "the installed DOCA lacks the symbol, or the device lacks the feature (DPA datapath, RDMA "
     "write, sync-event export)",
     {kSymbolAudit, kDeviceCaps, kHasDpa}},
    /* 5 AGAIN */
    {L::transient,
     "the resource is busy: retry; if it never clears, something upstream is stuck",
     {kKernel, kAll, kHost}},
    /* 6 INVALID_VALUE */
    {L::configuration,
     "an argument is wrong: NULL handle, zero size, or objects from different devices, verbs "
     "contexts or PDs mixed in one call",
     {kDeviceCaps, kOrder, kSymbolAudit}},
    /* 7 NO_MEMORY */
    {L::resources, "a host, DPA-heap or verbs resource budget ran out", {kDeviceCaps, kHost, kAll}},
    /* 8 INITIALIZATION */
    {L::below_doca,
     "a resource could not be brought up below DOCA: driver, firmware or a device in a bad state",
     {kHost, kInstall, kAll}},
    /* 9 TIME_OUT */
    {L::transient,
     "something did not answer in time: a DPA kernel that never completed, or a device that "
     "stopped responding",
     {kKernel, kHost, kLink}},
    /* 10 SHUTDOWN */
    {L::lifecycle_order,
     "the object is stopping or stopped: the call came after doca_ctx_stop",
     {kOrder, kAll, kKernel}},
    /* 11 CONNECTION_RESET */
    {L::data_path, "the peer reset the RDMA connection", {kLink, kWrite, kHost}},
    /* 12 CONNECTION_ABORTED */
    {L::data_path, "the RDMA connection was aborted", {kLink, kWrite, kHost}},
    /* 13 CONNECTION_INPROGRESS */
    {L::transient,
     "the connection is still being set up: wait for it before posting",
     {kWrite, kLink, kOrder}},
    /* 14 NOT_CONNECTED */
    {L::configuration,
     "not connected to what it needs, not a link problem: from doca_ctx_start, the context has "
     "no progress engine and no DPA or GPU datapath (usually a missing "
     "doca_ctx_set_datapath_on_dpa); from doca_dev_open or doca_verbs_context_create, the device "
     "could not be opened",
     {kOrder, kHost, kDeviceCaps}},
    /* 15 NO_LOCK */
    {L::transient,
     "a lock could not be taken: another thread or process holds it",
     {kAll, kHost, kKernel}},
    /* 16 NOT_FOUND */
    {L::configuration,
     "the named device, library, kernel or entry does not exist here",
     {kDeviceCaps, kInstall, kSymbolAudit}},
    /* 17 IO_FAILED */
    {L::data_path,
     "a work request completed with an error: read the completion's error, not the submit return",
     {kWrite, kLink, kHost}},
    /* 18 BAD_STATE */
    {L::lifecycle_order,
     "a call in the wrong state: configure/attach after doca_ctx_start, a DPA handle before "
     "start, or a DPA-side call on a context not set on the DPA datapath",
     {kOrder, kKernel, kSymbolAudit}},
    /* 19 UNSUPPORTED_VERSION */
    {L::version,
     "the pieces of DOCA disagree: headers, libraries, firmware or the DPA application were "
     "built for another version",
     {kVersions, kSymbolAudit, kInstall}},
    /* 20 OPERATING_SYSTEM */
    {L::below_doca,
     "a system call failed under DOCA: see errno in the DOCA log, dmesg, limits",
     {kHost, kAll, kInstall}},
    /* 21 DRIVER */
    {L::below_doca,
     "the mlx5 driver, the firmware or a QP transition failed below DOCA: not an RDMI problem; "
     "capture dmesg and the device state",
     {kHost, kLink, kAll}},
    /* 22 UNEXPECTED */
    {L::internal,
     "DOCA met a case it did not expect: capture the DOCA log and the call sequence",
     {kAll, kOrder, kVersions}},
    /* 23 ALREADY_EXIST */
    {L::configuration,
     "the object or setting already exists: a second create, attach or add",
     {kOrder, kAll, kDeviceCaps}},
    /* 24 FULL */
    {L::resources,
     "a queue or table is full: size it for the work, or drain it",
     {kDeviceCaps, kWrite, kAll}},
    /* 25 EMPTY */
    {L::transient,
     "nothing to take yet (an empty queue); not a failure by itself",
     {kWrite, kKernel, kAll}},
    /* 26 IN_PROGRESS */
    {L::transient, "the operation has not finished: poll again", {kKernel, kWrite, kAll}},
    /* 27 TOO_BIG */
    {L::configuration,
     "a size exceeds what the device or the object allows (message, queue, buffer list)",
     {kDeviceCaps, kWrite, kAll}},
    /* 28 AUTHENTICATION */
    {L::below_doca, "an authentication step failed below DOCA", {kHost, kInstall, kAll}},
    /* 29 BAD_CONFIG */
    {L::configuration,
     "the configuration is inconsistent (for example a device that must be extended, or one that "
     "cannot be)",
     {kDeviceCaps, kHost, kAll}},
    /* 30 SKIPPED */
    {L::data_path, "the result is valid but earlier output was dropped", {kWrite, kAll, kHost}},
    /* 31 DEVICE_FATAL_ERROR */
    {L::below_doca,
     "the device met a fatal error (a crashed DPA kernel, firmware): the context cannot be used "
     "again; capture dmesg and the DPA crash file",
     {kHost, kKernel, kAll}},
}};

std::vector<ErrorEntry> build_entries() {
    std::vector<ErrorEntry> entries;
    for (std::size_t i = 0; i < kRows.size(); ++i) {
        const int number = static_cast<int>(i);
        entries.push_back(ErrorEntry{number, fallback_error_name(number),
                                     fallback_error_description(number), kRows[i].layer,
                                     kRows[i].meaning, kRows[i].checks});
    }
    return entries;
}

constexpr std::string_view kAttachAfterStart =
    "attached after doca_ctx_start: a completion source is configuration and must precede start "
    "(or a second completion source was attached: exactly one per object)";
constexpr std::string_view kAttachFix =
    "attach the DPA completion before doca_ctx_start, once; to change it, stop the context first";
constexpr std::string_view kCqAttachAfterStart =
    "attached after doca_ctx_start: a completion source is configuration and must precede start "
    "(or a second completion source was attached: exactly one per object, a DPA completion or a "
    "CQ)";
constexpr std::string_view kCqAttachFix =
    "attach the CQ before doca_ctx_start, once, and no DPA completion beside it";
constexpr std::string_view kConfiguredAfterStart =
    "configured after doca_ctx_start: the object is configured between create and start";
constexpr std::string_view kConfigureFix =
    "make the call between create and doca_ctx_start; to change it, stop the context first";
constexpr std::string_view kCreateArguments =
    "a NULL argument: the verbs context, (for a connection) the device representor, or the "
    "output pointer";
constexpr std::string_view kCreateArgumentsFix =
    "create it on an opened doca_verbs_context (and, for a connection, the device "
    "representor), every pointer non-NULL";
constexpr std::string_view kRdmiUnsupported =
    "this DOCA does not provide RDMI, or the device has no DPA datapath";
constexpr std::string_view kRdmiUnsupportedFix =
    "rdmi-probe symbols shows what libdoca_rdmi exports; rdmi-probe caps shows which devices "
    "have a DPA";

std::string short_name(std::string_view name) {
    for (std::string_view prefix : {"DOCA_ERROR_", "DOCA_"}) {
        if (name.substr(0, prefix.size()) == prefix) return std::string(name.substr(prefix.size()));
    }
    return std::string(name);
}

std::string normalise(std::string_view query) {
    std::string out;
    for (char c : query) {
        out += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string_view to_string(ErrorLayer layer) {
    switch (layer) {
        case L::none:
            return "none";
        case L::configuration:
            return "configuration";
        case L::lifecycle_order:
            return "lifecycle-order";
        case L::unsupported:
            return "unsupported";
        case L::version:
            return "version";
        case L::resources:
            return "resources";
        case L::transient:
            return "transient";
        case L::data_path:
            return "data-path";
        case L::below_doca:
            return "below-doca";
        case L::internal:
            return "internal";
    }
    return "internal";
}

std::string_view describe(ErrorLayer layer) {
    switch (layer) {
        case L::none:
            return "no error";
        case L::configuration:
            return "configuration: an argument, a size or a setting the program chose";
        case L::lifecycle_order:
            return "lifecycle order: the call came in the wrong state of its object";
        case L::unsupported:
            return "unsupported on this device or by this DOCA";
        case L::version:
            return "version: the parts of DOCA (or the DPA application) disagree";
        case L::resources:
            return "resources: a budget of memory, queue entries or objects ran out";
        case L::transient:
            return "transient: nothing is wrong yet; retry or wait";
        case L::data_path:
            return "data path: a work request or connection failed on the wire";
        case L::below_doca:
            return "below DOCA: driver, firmware, operating system or permissions";
        case L::internal:
            return "inside DOCA: it cannot say more";
    }
    return "inside DOCA: it cannot say more";
}

const std::vector<ErrorEntry>& error_entries() {
    static const std::vector<ErrorEntry> entries = build_entries();
    return entries;
}

std::optional<ErrorEntry> find_error(std::string_view query) {
    if (query.empty() || query.size() > 64) return std::nullopt;
    int number = -1;
    const auto* end = query.data() + query.size();
    if (auto [ptr, ec] = std::from_chars(query.data(), end, number);
        ec == std::errc{} && ptr == end) {
        if (number < 0 || static_cast<std::size_t>(number) >= error_entries().size())
            return std::nullopt;
        return error_entries()[static_cast<std::size_t>(number)];
    }
    const std::string wanted = normalise(query);
    for (const auto& entry : error_entries()) {
        if (wanted == entry.name || wanted == short_name(entry.name)) return entry;
    }
    return std::nullopt;
}

std::vector<std::string> closest_error_names(std::string_view query, std::size_t count) {
    const std::string wanted = short_name(normalise(query.substr(0, 64)));
    std::vector<std::pair<std::size_t, std::string_view>> ranked;
    for (const auto& entry : error_entries())
        ranked.emplace_back(edit_distance(wanted, short_name(entry.name)), entry.name);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> names;
    for (std::size_t i = 0; i < ranked.size() && names.size() < count; ++i)
        names.emplace_back(ranked[i].second);
    return names;
}

const std::vector<CallCause>& call_causes() {
    constexpr auto D = CauseBasis::documented;
    constexpr auto I = CauseBasis::inferred;
    static const std::vector<CallCause> causes{
        {"doca_rdmi_connection_dpa_completion_attach", 18, kAttachAfterStart, kAttachFix, I, ""},
        {"doca_rdmi_poster_dpa_completion_attach", 18, kAttachAfterStart, kAttachFix, I, ""},
        {"doca_rdma_dpa_completion_attach", 18, kAttachAfterStart, kAttachFix, I, ""},
        {"doca_rdmi_connection_cq_attach", 18, kCqAttachAfterStart, kCqAttachFix, I, ""},
        {"doca_rdmi_poster_cq_attach", 18, kCqAttachAfterStart, kCqAttachFix, I, ""},
        {"doca_rdmi_connection_set_pd", 18, kConfiguredAfterStart, kConfigureFix, I, ""},
        {"doca_rdmi_connection_init_receive", 18, kConfiguredAfterStart, kConfigureFix, I, ""},
        {"doca_rdmi_connection_set_input", 18, kConfiguredAfterStart, kConfigureFix, I, ""},
        {"doca_rdmi_poster_set_pd", 18, kConfiguredAfterStart, kConfigureFix, I, ""},
        {"doca_rdmi_poster_set_input", 18, kConfiguredAfterStart, kConfigureFix, I, ""},
        {"doca_rdmi_connection_create", 6, kCreateArguments, kCreateArgumentsFix, I, ""},
        {"doca_rdmi_poster_create", 6, kCreateArguments, kCreateArgumentsFix, I, ""},
        {"doca_rdmi_connection_create", 4, kRdmiUnsupported, kRdmiUnsupportedFix, I, ""},
        {"doca_rdmi_poster_create", 4, kRdmiUnsupported, kRdmiUnsupportedFix, I, ""},
        {"doca_ctx_set_datapath_on_dpa", 18,
         "called after doca_ctx_start: the datapath is configuration",
         "set the DPA datapath between create and doca_ctx_start", D, "doca_ctx.h"},
        {"doca_ctx_start", 14,
         "the context is connected to no progress engine and has no DPA or GPU datapath: usually "
         "doca_ctx_set_datapath_on_dpa was not called (not a network link problem)",
         "call doca_ctx_set_datapath_on_dpa (or connect the context to a progress engine) before "
         "doca_ctx_start",
         D, "doca_ctx.h"},
        {"doca_rdma_get_dpa_handle", 18,
         "asked before doca_ctx_start, or the context is not on the DPA datapath",
         "call doca_ctx_set_datapath_on_dpa before start, and take handles after start", D,
         "doca_rdma.h"},
        {"doca_rdmi_connection_get_dpa_handle", 18,
         "asked before doca_ctx_start, or the connection is not on the DPA datapath",
         "take DPA handles after doca_ctx_start, from a context set on the DPA datapath", I, ""},
        {"doca_rdmi_poster_get_dpa_handle", 18,
         "asked before doca_ctx_start, or the poster is not on the DPA datapath",
         "take DPA handles after doca_ctx_start, from a context set on the DPA datapath", I, ""},
        {"doca_dpa_completion_get_dpa_handle", 18, "asked before doca_dpa_completion_start",
         "start the completion, then take its handle", I, ""},
        {"doca_mmap_dev_get_dpa_handle", 2, "the mmap is not started, or was stopped",
         "start the mmap (doca_mmap_start), then take its handle", D, "doca_mmap.h"},
        {"doca_dpa_set_app", 18, "called after doca_dpa_start",
         "set the DPA application between doca_dpa_create and doca_dpa_start", I, ""},
        {"doca_dpa_cap_is_supported", 4,
         "the device has no DPA (not a BlueField-3 or ConnectX-7+ function exposing it)",
         "pick a PF of a DPA-capable device: rdmi-probe caps lists them", I, ""},
        {"doca_dpa_create", 4, "the device has no DPA",
         "ask doca_dpa_cap_is_supported first and pick a device that answers DOCA_SUCCESS", I, ""},
        {"doca_rdma_cap_task_write_is_supported", 4, "the device cannot post RDMA writes",
         "pick another device; rdmi-probe caps lists them", I, ""},
        {"doca_dev_open", 14, "the device could not be opened (not a network link problem)",
         "check that mlx5_core, mlx5_ib and ib_uverbs are loaded and the device files are "
         "accessible (rdmi-probe state)",
         D, "doca_dev.h"},
        {"doca_dev_close", 3, "objects made on the device are still alive",
         "destroy every context, mmap and DPA context of the device before closing it", D,
         "doca_dev.h"},
        {"doca_verbs_context_create", 14, "the device could not be opened",
         "check that ib_uverbs is loaded and the device file is accessible (rdmi-probe state)", D,
         "doca_verbs.h"},
    };
    return causes;
}

std::string_view to_string(CauseBasis basis) {
    return basis == CauseBasis::documented ? "documented" : "inferred";
}

std::string basis_text(const CallCause& cause) {
    if (cause.basis == CauseBasis::documented)
        return "documented in " + std::string(cause.documented_in);
    return "inferred from the lifecycle (the call's documentation lists no cause for this error)";
}

std::optional<CallCause> find_call_cause(std::string_view call, int number) {
    for (const auto& cause : call_causes()) {
        if (cause.call == call && cause.number == number) return cause;
    }
    return std::nullopt;
}

std::vector<std::string> known_calls() {
    std::vector<std::string> calls;
    for (const auto& cause : call_causes()) calls.emplace_back(cause.call);
    std::sort(calls.begin(), calls.end());
    calls.erase(std::unique(calls.begin(), calls.end()), calls.end());
    return calls;
}

std::vector<std::string> closest_call_names(std::string_view query, std::size_t count) {
    const std::string_view wanted = query.substr(0, 128);
    std::vector<std::pair<std::size_t, std::string>> ranked;
    for (auto& call : known_calls()) ranked.emplace_back(edit_distance(wanted, call), call);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> names;
    for (std::size_t i = 0; i < ranked.size() && names.size() < count; ++i)
        names.push_back(std::move(ranked[i].second));
    return names;
}

bool known_call(std::string_view call) {
    return std::any_of(call_causes().begin(), call_causes().end(),
                       [call](const CallCause& cause) { return cause.call == call; });
}

}  // namespace rdmi::doca
