// Which backend a root's database is read with: dpkg's status file decides.
#include "packages/package_database.hpp"

#include "packages/dpkg_records.hpp"

namespace rdmi {

const Result<std::shared_ptr<const PackageRecords>>& PackageDatabase::open(
    const Fs& fs, const Deadline& deadline) const {
    const std::lock_guard lock(mutex_);
    if (!records_) {
        records_ = std::make_unique<Result<std::shared_ptr<const PackageRecords>>>(
            open_dpkg_records(fs, deadline));
    }
    return *records_;
}

bool PackageDatabase::opened() const {
    const std::lock_guard lock(mutex_);
    return records_ != nullptr;
}

}  // namespace rdmi
