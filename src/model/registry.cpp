// The probe registry's rows and the collector.
#include "model/registry.hpp"

#include <array>
#include <exception>
#include <string>

#include "probes/samples.hpp"

namespace rdmi {
namespace {

constexpr std::uint32_t bit(ProbeId id) {
    return std::uint32_t{1} << static_cast<unsigned>(id);
}

void run_install(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    facts.install = probe_install(ctx);
}

void install_checks(const Facts& facts, std::vector<Check>& out) {
    if (facts.install)
        out.insert(out.end(), facts.install->checks.begin(), facts.install->checks.end());
}

void run_system(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    facts.system = probe_system(ctx);
}

void run_verbs(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    facts.verbs = probe_verbs(ctx);
}

void run_doca_caps(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    facts.doca_caps = probe_doca_caps(ctx, facts.install);
}

void run_devices(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    if (!facts.system || !facts.verbs || !facts.doca_caps) return;
    facts.devices = join_devices(*facts.system, *facts.verbs, *facts.doca_caps, ctx.live());
}

void devices_checks(const Facts& facts, std::vector<Check>& out) {
    if (facts.devices)
        out.insert(out.end(), facts.devices->checks.begin(), facts.devices->checks.end());
}

void run_symbols(const ProbeContext& ctx, const ProbeRequest& request, Facts& facts) {
    if (request.symbols) {
        facts.symbols = probe_symbols(ctx, *request.symbols);
        return;
    }
    if (!facts.install) return;
    facts.symbols = probe_rdmi_symbols(ctx, *facts.install);
}

// The audit's checks as they are (the report's audit already carries the rdmi- ids); an audit
// that could not run is a skipped rdmi-symbols-exported.
void symbols_checks(const Facts& facts, std::vector<Check>& out) {
    if (!facts.symbols) return;
    if (!*facts.symbols) {
        out.push_back(Check{
            Finding::rdmi_symbols_exported, Status::skip, facts.symbols->gap().message, "", {}});
        return;
    }
    const auto& checks = (*facts.symbols)->checks;
    out.insert(out.end(), checks.begin(), checks.end());
}

void run_version_matrix(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    if (!facts.install) return;
    facts.version_matrix = probe_version_matrix(ctx, *facts.install);
}

void version_matrix_checks(const Facts& facts, std::vector<Check>& out) {
    if (facts.version_matrix) out.push_back(facts.version_matrix->check);
}

void run_environment(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    facts.environment = probe_environment(ctx);
}

void environment_checks(const Facts& facts, std::vector<Check>& out) {
    if (facts.environment) {
        out.insert(out.end(), facts.environment->checks.begin(), facts.environment->checks.end());
    }
}

void run_samples(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    if (facts.install) facts.samples = probe_samples(ctx, *facts.install);
}

void run_loopback(const ProbeContext& ctx, const ProbeRequest& request, Facts& facts) {
    if (request.loopback) facts.loopback = probe_loopback(ctx, facts.install, *request.loopback);
}

void run_pcie_link(const ProbeContext& ctx, const ProbeRequest&, Facts& facts) {
    if (facts.system) facts.pcie_link = probe_pcie_link(ctx, facts.system->inventory);
}

void pcie_link_checks(const Facts& facts, std::vector<Check>& out) {
    if (facts.pcie_link && facts.pcie_link->check) out.push_back(*facts.pcie_link->check);
}

constexpr std::span<const ProbeId> kNothing{};
constexpr ProbeId kInstall[] = {ProbeId::install};
constexpr ProbeId kSystem[] = {ProbeId::system};
constexpr ProbeId kDevicesInputs[] = {ProbeId::system, ProbeId::verbs, ProbeId::doca_caps};

constexpr std::array kRows{
    ProbeRow{ProbeId::install, "install", "DOCA install and versions",
             "pkg-config search path and .pc files; the DOCA prefix's files; version sources",
             kNothing, kNothing, "install", &run_install, &install_checks},
    ProbeRow{ProbeId::system, "system", "PCI functions, platform and host kind",
             "/sys (PCI, InfiniBand, net, platform devices), /proc/modules, /proc/meminfo, "
             "/etc/mlnx-release, uname",
             kNothing, kNothing, "system", &run_system, nullptr},
    ProbeRow{ProbeId::verbs, "verbs", "verbs devices and ports",
             "libibverbs (live only, in a child process)", kNothing, kNothing, "verbs", &run_verbs,
             nullptr},
    ProbeRow{ProbeId::doca_caps, "doca-caps", "DOCA devices and capabilities",
             "libdoca_* of the install (live only, in a child process)", kNothing, kInstall,
             "doca_caps", &run_doca_caps, nullptr},
    ProbeRow{ProbeId::devices, "devices", "devices, ports and DPA capability",
             "nothing: joins system, verbs and doca-caps per function", kDevicesInputs, kNothing,
             "devices", &run_devices, &devices_checks},
    ProbeRow{ProbeId::symbols, "symbols", "doca-rdmi symbol stability",
             "the library's ELF file, its headers, the loader's search path; dlopen when live "
             "and trusted",
             kInstall, kNothing, "symbols", &run_symbols, &symbols_checks},
    ProbeRow{ProbeId::version_matrix, "version-matrix", "version-matrix.json",
             "<prefix>/share/version-matrix.json", kInstall, kNothing, "version_matrix",
             &run_version_matrix, &version_matrix_checks},
    ProbeRow{ProbeId::environment, "environment", "loader variables in the environment",
             "LD_PRELOAD, LD_LIBRARY_PATH", kNothing, kNothing, "environment", &run_environment,
             &environment_checks},
    ProbeRow{ProbeId::samples, "samples", "samples of the public DOCA libraries",
             "<prefix>/samples", kInstall, kNothing, "samples", &run_samples, nullptr},
    ProbeRow{ProbeId::loopback, "loopback", "DPA loopback RDMA write",
             "the DOCA libraries and the DPA plugin (live only, in a child process)", kNothing,
             kInstall, "loopback", &run_loopback, nullptr},
    ProbeRow{ProbeId::pcie_link, "pcie-link", "PCIe link speed and width",
             "/sys: each PF's current_link_speed/_width, max_link_speed/_width and its upstream "
             "port's max_link_speed/_width",
             kSystem, kNothing, "pcie_link", &run_pcie_link, &pcie_link_checks},
};

// The registry order must be the enum's, so that probe_row is an index.
constexpr bool rows_in_enum_order() {
    for (std::size_t i = 0; i < kRows.size(); ++i) {
        if (static_cast<std::size_t>(kRows[i].id) != i) return false;
    }
    return true;
}
static_assert(rows_in_enum_order());
static_assert(kRows.size() <= 32, "Facts::collected has one bit per probe");

void collect_one(const ProbeContext& ctx, ProbeId id, Facts& facts, const ProbeRequest& request,
                 OnProbeError on_error) {
    if (collected(facts, id)) return;
    const ProbeRow& row = probe_row(id);
    // Marked before the dependencies run, so that a cycle in the table cannot recurse forever.
    facts.collected |= bit(id);
    for (ProbeId dep : row.depends_on) collect_one(ctx, dep, facts, request, on_error);
    if (ctx.live()) {
        for (ProbeId dep : row.depends_on_live) collect_one(ctx, dep, facts, request, on_error);
    }
    if (on_error == OnProbeError::raise) {
        row.run(ctx, request, facts);
        return;
    }
    try {
        row.run(ctx, request, facts);
    } catch (const std::exception& e) {
        facts.probe_errors.push_back({std::string(row.name), e.what()});
    }
}

}  // namespace

std::span<const ProbeRow> probe_registry() {
    return kRows;
}

const ProbeRow& probe_row(ProbeId id) {
    return kRows[static_cast<std::size_t>(id)];
}

bool collected(const Facts& facts, ProbeId id) {
    return (facts.collected & bit(id)) != 0;
}

void collect(const ProbeContext& ctx, std::span<const ProbeId> wanted, Facts& facts,
             const ProbeRequest& request, OnProbeError on_error) {
    for (ProbeId id : wanted) collect_one(ctx, id, facts, request, on_error);
}

void collect(const ProbeContext& ctx, std::initializer_list<ProbeId> wanted, Facts& facts,
             const ProbeRequest& request, OnProbeError on_error) {
    collect(ctx, std::span<const ProbeId>(wanted.begin(), wanted.size()), facts, request, on_error);
}

std::vector<Check> report_checks(const Facts& facts) {
    std::vector<Check> out;
    for (const auto& row : kRows) {
        if (!collected(facts, row.id)) continue;
        bool failed = false;
        for (const auto& error : facts.probe_errors) {
            if (error.probe != row.name) continue;
            failed = true;
            out.push_back(Check{FindingId(Finding::probe_error, row.name),
                                Status::fail,
                                std::string(row.title) + ": internal error: " + error.message,
                                "report this as a bug in rdmi-probe, with the command line",
                                {}});
        }
        if (!failed && row.checks != nullptr) row.checks(facts, out);
    }
    return out;
}

}  // namespace rdmi
