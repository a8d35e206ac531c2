// Which backend a root's database is read with: dpkg's status file decides, then rpm's database.
#include "packages/package_database.hpp"

#include "packages/dpkg_records.hpp"

namespace rdmi {

const Result<std::shared_ptr<const PackageRecords>>& PackageDatabase::open(
    const Fs& fs, const Deadline& deadline, const OtherManager& other) const {
    const std::lock_guard lock(mutex_);
    if (records_) return *records_;
    Result<std::shared_ptr<const PackageRecords>> dpkg = open_dpkg_records(fs, deadline);
    if (!dpkg && dpkg.gap().reason == GapReason::not_found && other) {
        auto rpm = other();
        if (rpm) {
            records_ = std::make_unique<Result<std::shared_ptr<const PackageRecords>>>(
                std::shared_ptr<const PackageRecords>(std::move(rpm).value()));
            return *records_;
        }
        // Neither manager's database: the dpkg gap says so; an rpm database that exists but
        // cannot be used says why instead.
        if (rpm.gap().reason != GapReason::not_applicable) {
            records_ = std::make_unique<Result<std::shared_ptr<const PackageRecords>>>(rpm.gap());
            return *records_;
        }
    }
    records_ = std::make_unique<Result<std::shared_ptr<const PackageRecords>>>(std::move(dpkg));
    return *records_;
}

bool PackageDatabase::opened() const {
    const std::lock_guard lock(mutex_);
    return records_ != nullptr;
}

}  // namespace rdmi
