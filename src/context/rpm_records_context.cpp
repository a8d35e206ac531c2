#include "context/rpm_records_context.hpp"

#include <spdlog/spdlog.h>

namespace rdmi {

Result<std::unique_ptr<PackageRecords>> open_rpm_records(const ProbeContext& ctx) {
    RpmRecordsSource source{
        ctx.fs,
        ctx.answers,
        ctx.deadline,
        ctx.call_timeout,
        *ctx.private_dir,
        [&ctx](const std::string& host_path) { return ctx.host_library_loadable(host_path); },
        RpmRecordsSource::default_librpm_paths(),
        &ctx.log};
    auto records = open_rpm_records(source);
    if (records) {
        ctx.log.info("rpm records: read {} ({})", (*records)->source().ref,
                     (*records)->source().kind);
    } else if (records.gap().reason != GapReason::not_applicable) {
        ctx.log.warn("rpm records: {}", records.gap().message);
    }
    return records;
}

void log_rpm_owners_of_missing(const ProbeContext& ctx, const std::vector<std::string>& missing) {
    if (missing.empty()) return;
    auto records = open_rpm_records(ctx);
    if (!records) return;
    for (const auto& path : missing) {
        auto record = (*records)->owner_of(path);
        if (!record) {
            ctx.log.info("rpm records: no installed package lists {}", path);
            continue;
        }
        ctx.log.info("rpm records: package {} (version {}, {}) lists {}, but it is missing: {}",
                     record->package.name, record->package.version, record->package.arch, path,
                     (*records)->reinstall_command(record->package));
    }
}

}  // namespace rdmi

namespace rdmi {

const Result<std::shared_ptr<const PackageRecords>>& ProbeContext::package_records() const {
    return packages->open(fs, deadline, [this] { return open_rpm_records(*this); });
}

}  // namespace rdmi
