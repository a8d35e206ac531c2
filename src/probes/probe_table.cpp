// The probe table and its runner.
#include "probes/probe_table.hpp"

#include <array>
#include <exception>

namespace rdmi {
namespace {

void run_install(const ProbeContext& ctx, Report& report) {
    report.install = probe_install(ctx);
    report.checks.insert(report.checks.end(), report.install->checks.begin(),
                         report.install->checks.end());
}

void run_devices(const ProbeContext& ctx, Report& report) {
    report.devices = probe_devices(ctx, report.install);
    report.checks.insert(report.checks.end(), report.devices->checks.begin(),
                         report.devices->checks.end());
}

// Ids gain "rdmi-" (rdmi_variant): the report audits doca-rdmi, and its check ids say so.
void run_symbols(const ProbeContext& ctx, Report& report) {
    if (!report.install) return;
    report.symbols = probe_rdmi_symbols(ctx, *report.install);
    if (!report.symbols) return;
    if (!*report.symbols) {
        report.checks.push_back(Check{
            Finding::rdmi_symbols_exported, Status::skip, report.symbols->gap().message, "", {}});
        return;
    }
    for (auto check : (*report.symbols)->checks) {
        check.id = rdmi_variant(check.id.finding());
        report.checks.push_back(std::move(check));
    }
}

void run_version_matrix(const ProbeContext& ctx, Report& report) {
    if (!report.install) return;
    report.version_matrix = contract::probe_version_matrix(ctx, *report.install);
    report.checks.push_back(report.version_matrix->check);
}

void run_environment(const ProbeContext& ctx, Report& report) {
    report.environment = probe_environment(ctx);
    report.checks.insert(report.checks.end(), report.environment->checks.begin(),
                         report.environment->checks.end());
}

constexpr std::array kProbes{
    ProbeSpec{"install", "DOCA install and versions", &run_install},
    ProbeSpec{"devices", "devices, ports and DPA capability", &run_devices},
    ProbeSpec{"symbols", "doca-rdmi symbol stability", &run_symbols},
    ProbeSpec{"version-matrix", "version-matrix.json", &run_version_matrix},
    ProbeSpec{"environment", "loader variables in the environment", &run_environment},
};

}  // namespace

std::span<const ProbeSpec> probe_table() {
    return kProbes;
}

void run_probes(const ProbeContext& ctx, Report& report) {
    for (const auto& probe : probe_table()) {
        try {
            probe.run(ctx, report);
        } catch (const std::exception& e) {
            report.probe_errors.push_back({std::string(probe.id), e.what()});
            report.checks.push_back(
                Check{FindingId(Finding::probe_error, probe.id),
                      Status::fail,
                      std::string(probe.title) + ": internal error: " + e.what(),
                      "report this as a bug in rdmi-probe, with the command line",
                      {}});
        }
    }
}

}  // namespace rdmi
