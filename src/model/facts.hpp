// The facts model and the probes that fill it, one row per probe. This is the one file of
// src/model/ that a new probe edits: its line in RDMI_PROBES (which makes its ProbeId and its
// field of Facts) and its row in kProbeRows (what it reads and needs, how it runs, the checks
// and catalog entries it brings, its section of the report). Every emitter reads only Facts.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "json/json_common.hpp"
#include "model/device_scope.hpp"
#include "probes/devices/devices.hpp"
#include "probes/devices/devices_findings.hpp"
#include "probes/devices/devices_json.hpp"
#include "probes/doca_caps/doca_caps.hpp"
#include "probes/environment.hpp"
#include "probes/install/install.hpp"
#include "probes/install/install_findings.hpp"
#include "probes/install/install_integrity.hpp"
#include "probes/install/install_json.hpp"
#include "probes/loopback/loopback.hpp"
#include "probes/pcie_link/pcie_link.hpp"
#include "probes/roce_gid/roce_gid.hpp"
#include "probes/samples.hpp"
#include "probes/symbols/symbols.hpp"
#include "probes/symbols/symbols_findings.hpp"
#include "probes/symbols/symbols_json.hpp"
#include "probes/system.hpp"
#include "probes/verbs/gid_tables.hpp"
#include "probes/verbs/verbs.hpp"
#include "probes/version_matrix.hpp"
#include "probes/version_matrix_json.hpp"
#include "process/containment.hpp"

namespace rdmi {

// Every probe, in registry order (each after what it depends on): its id and the type of what
// it adds to Facts. ProbeId and the fields of Facts are made from this list, so they cannot
// disagree with it; kProbeRows below holds the rest of each row, in the same order (asserted).
// NOLINTBEGIN(cppcoreguidelines-macro-usage): an X-macro is the one way to make an enum and
// struct fields from one list.
#define RDMI_PROBES(PROBE)                                                                      \
    PROBE(install, InstallFacts)                                                                \
    /* the sysfs inventory, platform and host classification */                                 \
    PROBE(system, SystemFacts)                                                                  \
    PROBE(verbs, VerbsFacts)                                                                    \
    PROBE(doca_caps, DocaCapsFacts)                                                             \
    /* the sysfs, verbs and DOCA views joined per function, with the device checks */           \
    PROBE(devices, DevicesFacts)                                                                \
    /* the symbol audit: of doca-rdmi for the report (nullopt when the module or its library */ \
    /* is absent), or what the gate asked for */                                                \
    PROBE(symbols, Result<SymbolsFacts>)                                                        \
    PROBE(version_matrix, VersionMatrixFacts)                                                   \
    /* loader variables in this process's environment (LD_PRELOAD, LD_LIBRARY_PATH) */          \
    PROBE(environment, EnvironmentFacts)                                                        \
    /* the samples directories of the public DOCA libraries */                                  \
    PROBE(samples, SamplesFacts)                                                                \
    PROBE(loopback, LoopbackVerdict)                                                            \
    /* each PF's trained PCIe link against what card and slot can reach */                      \
    PROBE(pcie_link, PcieLinkFacts)                                                             \
    /* each ACTIVE RoCE port with a netdev has a RoCE v2 GID with an IP address */              \
    PROBE(roce_gid, RoceGidFacts)                                                               \
    /* the judged install files against their package's md5 (report --integrity) */             \
    PROBE(install_integrity, IntegrityFacts)

/// Every probe, in registry order.
enum class ProbeId : std::uint8_t {
#define RDMI_PROBE_ID(id, type) id,
    RDMI_PROBES(RDMI_PROBE_ID)
#undef RDMI_PROBE_ID
};

/// The name of each probe's field of Facts (and of its report section), by ProbeId.
inline constexpr std::string_view kProbeFields[] = {
#define RDMI_PROBE_FIELD_NAME(id, type) #id,
    RDMI_PROBES(RDMI_PROBE_FIELD_NAME)
#undef RDMI_PROBE_FIELD_NAME
};
// NOLINTEND(cppcoreguidelines-macro-usage)

/// Facts about the run itself.
struct RunInfo {
    std::string root = "/";
    bool live = true;
    std::string generated_at;  ///< ISO-8601 UTC
    double duration_ms = 0;
    double timeout_s = 0;
    /// How the children that load vendor libraries and run tools were contained.
    ContainmentStatus containment;
    /// The question the report answers (`report --for`): its checks, result and exit code are
    /// those of the checks of these purposes.
    Purposes for_purposes = Purposes::both;
};

/// A probe that stopped with an unexpected error; the others still ran.
struct ProbeError {
    std::string probe;
    std::string message;
};

/// The collected facts of one run: one field per probe, named as its ProbeId. A probe that did
/// not run (not asked for, or its input was missing) leaves its field empty.
struct Facts {
    RunInfo run;
#define RDMI_PROBE_FIELD(id, type) std::optional<type> id;
    RDMI_PROBES(RDMI_PROBE_FIELD)
#undef RDMI_PROBE_FIELD
    std::vector<ProbeError> probe_errors;  ///< in the order the probes ran
    /// -d/--device: the functions the device-bearing facts were narrowed to, and the others.
    std::optional<DeviceScope> device_scope;
    std::uint32_t collected = 0;  ///< one bit per probe that ran (see registry.hpp)
    /// One bit per probe whose live half (ProbeRow::start) was begun: begun once, even when a
    /// command begins it before its collect() (check), which would otherwise begin it again.
    std::uint32_t started = 0;
    /// The verbs probe's first half (ProbeRow::start), taken by its run.
    std::optional<VerbsStart> verbs_start;
};

/// What a command wants of the probes that take parameters.
struct ProbeRequest {
    /// What the symbols probe audits; nullopt: the install's doca-rdmi module (the report).
    std::optional<SymbolsRequest> symbols;
    /// The loopback's options; the loopback probe runs only when they are given.
    std::optional<LoopbackOptions> loopback;
    /// Whether the install's files are compared with their package's md5 (report --integrity):
    /// the install-integrity probe runs only when asked.
    bool integrity = false;
    /// -d/--device: the functions the verbs and DOCA device lists are narrowed to (the system
    /// probe's scan is narrowed by the command, which resolves the names against it first).
    std::optional<DeviceScope> devices;
};

/// One probe's row.
struct ProbeRow {
    ProbeId id;
    std::string_view name;   ///< stable kebab-case id ("install"); names a probe error
    std::string_view title;  ///< for humans ("DOCA install and versions")
    std::string_view reads;  ///< what it looks at
    /// The probes whose facts it reads; they run first.
    std::span<const ProbeId> depends_on = {};
    /// Probes it reads only on the live root (under --root it does not look at them).
    std::span<const ProbeId> depends_on_live = {};
    /// Whether the full report runs it (kReportProbes, in registry order).
    bool in_report = false;
    /// Runs the probe: reads its dependencies' facts, fills its own. Leaves its field empty
    /// when an input it needs is missing (a dependency that failed says why).
    void (*run)(const ProbeContext& ctx, const ProbeRequest& request, Facts& facts);
    /// Begins its slow live half before any row of the collection runs (a call sent to the
    /// worker child, whose work then overlaps the static probes' reads); run() finishes it.
    /// nullptr: none. A start that throws is dropped: run() does the whole work then.
    void (*start)(const ProbeContext& ctx, Facts& facts) = nullptr;
    /// Appends the checks its facts carry, as the report lists them (nullptr: none). Pure.
    void (*checks)(const Facts& facts, std::vector<Check>& out) = nullptr;
    /// The catalog entries of its checks, declared beside its facts (in namespace
    /// rdmi::finding): check_catalog() lists every row's, in registry order, before the tables
    /// of the commands that have no row.
    std::span<const FindingInfo* const> findings = {};
    /// Its section of the report, under the name of its field (kProbeFields; nullptr: it has
    /// none). The report writes the sections in registry order, whether or not the probe ran
    /// (say null for "not collected" if a consumer needs the key); nullopt leaves the key out.
    /// Pure.
    std::optional<json::Json> (*json)(const Facts& facts) = nullptr;
};

namespace rows {

inline constexpr ProbeId kInstall[] = {ProbeId::install};
inline constexpr ProbeId kSystem[] = {ProbeId::system};
inline constexpr ProbeId kVerbs[] = {ProbeId::verbs};
inline constexpr ProbeId kDevicesInputs[] = {ProbeId::system, ProbeId::verbs, ProbeId::doca_caps};

// The checks a probe's facts carry in a `checks` member, as they are.
template <auto Field>
void carried_checks(const Facts& facts, std::vector<Check>& out) {
    if (const auto& f = facts.*Field) out.insert(out.end(), f->checks.begin(), f->checks.end());
}

// The symbol audit's checks, or a skip when it could not run.
void symbols_checks(const Facts& facts, std::vector<Check>& out);

// A section that is null when its probe did not run or its input was missing: the report always
// has the key, so a consumer can tell "not collected" from a section it does not know.
template <auto Field, auto Emit>
std::optional<json::Json> section_or_null(const Facts& facts) {
    const auto& f = facts.*Field;
    return f ? Emit(*f) : json::Json(nullptr);
}

}  // namespace rows

/// Every row, in registry order.
inline constexpr ProbeRow kProbeRows[] = {
    {.id = ProbeId::install,
     .name = "install",
     .title = "DOCA install and versions",
     .reads = "pkg-config search path and .pc files; the DOCA prefix's files; version sources",
     .in_report = true,
     .run = [](const ProbeContext& ctx, const ProbeRequest&,
               Facts& facts) { facts.install = probe_install(ctx); },
     .checks = &rows::carried_checks<&Facts::install>,
     .findings = kInstallFindings,
     .json = &rows::section_or_null<&Facts::install, &json::install>},
    {.id = ProbeId::system,
     .name = "system",
     .title = "PCI functions, platform and host kind",
     .reads = "/sys (PCI, InfiniBand, net, platform devices), /proc/modules, /proc/meminfo, "
              "/etc/mlnx-release, uname",
     .run = [](const ProbeContext& ctx, const ProbeRequest&,
               Facts& facts) { facts.system = probe_system(ctx); }},
    {.id = ProbeId::verbs,
     .name = "verbs",
     .title = "verbs devices and ports",
     .reads = "libibverbs (live only, in a child process)",
     .run =
         [](const ProbeContext& ctx, const ProbeRequest& request, Facts& facts) {
             auto started = std::exchange(facts.verbs_start, std::nullopt);
             facts.verbs = started ? probe_verbs(ctx, std::move(*started)) : probe_verbs(ctx);
             if (request.devices) narrow_to_scope(*facts.verbs, *request.devices);
         },
     .start = [](const ProbeContext& ctx, Facts& facts) { facts.verbs_start = start_verbs(ctx); }},
    {.id = ProbeId::doca_caps,
     .name = "doca-caps",
     .title = "DOCA devices and capabilities",
     .reads = "libdoca_* of the install (live only, in a child process)",
     .depends_on_live = rows::kInstall,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest& request, Facts& facts) {
             facts.doca_caps = probe_doca_caps(ctx, facts.install);
             if (request.devices) narrow_to_scope(*facts.doca_caps, *request.devices);
         }},
    {.id = ProbeId::devices,
     .name = "devices",
     .title = "devices, ports and DPA capability",
     .reads = "nothing: joins system, verbs and doca-caps per function",
     .depends_on = rows::kDevicesInputs,
     .in_report = true,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
             if (!facts.system || !facts.verbs || !facts.doca_caps) return;
             finish_gid_tables(ctx, facts.system->inventory, &*facts.verbs);
             facts.devices =
                 join_devices(*facts.system, *facts.verbs, *facts.doca_caps, ctx.live());
         },
     .checks = &rows::carried_checks<&Facts::devices>,
     .findings = kDevicesFindings,
     .json = &rows::section_or_null<&Facts::devices, &json::devices>},
    {.id = ProbeId::symbols,
     .name = "symbols",
     .title = "doca-rdmi symbol stability",
     .reads = "the library's ELF file, its headers, the loader's search path; dlopen when live "
              "and trusted",
     .depends_on = rows::kInstall,
     .in_report = true,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest& request, Facts& facts) {
             if (request.symbols) {
                 facts.symbols = probe_symbols(ctx, *request.symbols);
             } else if (facts.install) {
                 facts.symbols = probe_rdmi_symbols(ctx, *facts.install);
             }
         },
     .checks = &rows::symbols_checks,
     .findings = kSymbolsFindings,
     .json = [](const Facts& facts) -> std::optional<json::Json> {
         if (!facts.symbols) return json::Json(nullptr);
         // An audit that could not be made is a section with its gap, not a missing one.
         return *facts.symbols ? json::symbols_summary(**facts.symbols)
                               : json::symbols_gap(facts.symbols->gap());
     }},
    {.id = ProbeId::version_matrix,
     .name = "version-matrix",
     .title = "version-matrix.json",
     .reads = "<prefix>/share/version-matrix.json",
     .depends_on = rows::kInstall,
     .in_report = true,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
             if (facts.install) facts.version_matrix = probe_version_matrix(ctx, *facts.install);
         },
     .checks =
         [](const Facts& facts, std::vector<Check>& out) {
             if (facts.version_matrix) out.push_back(facts.version_matrix->check);
         },
     .findings = kVersionMatrixFindings,
     .json = &rows::section_or_null<&Facts::version_matrix, &json::version_matrix>},
    {.id = ProbeId::environment,
     .name = "environment",
     .title = "loader variables in the environment",
     .reads = "LD_PRELOAD, LD_LIBRARY_PATH",
     .in_report = true,
     .run = [](const ProbeContext& ctx, const ProbeRequest&,
               Facts& facts) { facts.environment = probe_environment(ctx); },
     .checks = &rows::carried_checks<&Facts::environment>,
     .findings = kEnvironmentFindings,
     .json = [](const Facts& facts) -> std::optional<json::Json> {
         // Left out, not null, when it did not run (as the report always had it).
         if (!facts.environment) return std::nullopt;
         return environment_json(*facts.environment);
     }},
    {.id = ProbeId::samples,
     .name = "samples",
     .title = "samples of the public DOCA libraries",
     .reads = "<prefix>/samples",
     .depends_on = rows::kInstall,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
             if (facts.install) facts.samples = probe_samples(ctx, *facts.install);
         }},
    {.id = ProbeId::loopback,
     .name = "loopback",
     .title = "DPA loopback RDMA write",
     .reads = "the DOCA libraries and the DPA plugin (live only, in a child process)",
     .depends_on_live = rows::kInstall,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest& request, Facts& facts) {
             if (request.loopback)
                 facts.loopback = probe_loopback(ctx, facts.install, *request.loopback);
         }},
    {.id = ProbeId::pcie_link,
     .name = "pcie-link",
     .title = "PCIe link speed and width",
     .reads = "/sys: each PF's current_link_speed/_width, max_link_speed/_width (its card's "
              "switch upstream port's, behind one) and the slot port's max_link_speed/_width",
     .depends_on = rows::kSystem,
     .in_report = true,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
             if (facts.system) facts.pcie_link = probe_pcie_link(ctx, facts.system->inventory);
         },
     .checks =
         [](const Facts& facts, std::vector<Check>& out) {
             if (facts.pcie_link && facts.pcie_link->check) out.push_back(*facts.pcie_link->check);
         },
     .findings = kPcieLinkFindings,
     .json = [](const Facts& facts) -> std::optional<json::Json> {
         // Only where a link was judged: trees without link attributes report as before.
         if (!facts.pcie_link || !facts.pcie_link->check) return std::nullopt;
         return pcie_link_json(*facts.pcie_link);
     }},
    {.id = ProbeId::roce_gid,
     .name = "roce-gid",
     .title = "RoCE v2 GIDs with an IP address",
     .reads = "/sys: each rdma device port's state, link_layer, gids/<i>, gid_attrs/types/<i> "
              "and gid_attrs/ndevs/<i> (the system probe's inventory); live, the GID tables "
              "from libibverbs' ibv_query_gid_table in the verbs worker instead",
     .depends_on = rows::kSystem,
     .depends_on_live = rows::kVerbs,
     .in_report = true,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
             if (!facts.system) return;
             finish_gid_tables(ctx, facts.system->inventory, facts.verbs ? &*facts.verbs : nullptr);
             facts.roce_gid = probe_roce_gid(facts.system->inventory);
         },
     .checks =
         [](const Facts& facts, std::vector<Check>& out) {
             if (facts.roce_gid && facts.roce_gid->check) out.push_back(*facts.roce_gid->check);
         },
     .findings = kRoceGidFindings,
     .json = [](const Facts& facts) -> std::optional<json::Json> {
         // Only where a port was judged: trees without an ACTIVE RoCE port report as before.
         if (!facts.roce_gid || !facts.roce_gid->check) return std::nullopt;
         return roce_gid_json(*facts.roce_gid);
     }},
    {.id = ProbeId::install_integrity,
     .name = "install-integrity",
     .title = "install files against their package's md5",
     .reads = "the package database (var/lib/dpkg) and the judged install files",
     .depends_on = rows::kInstall,
     .run =
         [](const ProbeContext& ctx, const ProbeRequest& request, Facts& facts) {
             if (request.integrity && facts.install)
                 facts.install_integrity = probe_install_integrity(ctx, *facts.install);
         },
     .checks =
         [](const Facts& facts, std::vector<Check>& out) {
             if (facts.install_integrity) out.push_back(facts.install_integrity->check);
         },
     .findings = kInstallIntegrityFindings,
     .json = [](const Facts& facts) -> std::optional<json::Json> {
         if (!facts.install_integrity) return std::nullopt;
         return install_integrity_json(*facts.install_integrity);
     }},
};

}  // namespace rdmi
