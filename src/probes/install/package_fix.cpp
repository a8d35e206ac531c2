// Package-named fixes: one lookup in the run's shared package database per file; without one,
// the generic wording and why (docs/reference/package-records.md#when-no-package-can-be-named).
#include "probes/install/package_fix.hpp"

namespace rdmi {
namespace {

std::string describe(const InstalledPackage& package) {
    std::string text = package.name;
    if (!package.version.empty()) text += " (version " + package.version + ")";
    return text;
}

}  // namespace

std::string package_fix(const ProbeContext& ctx, const std::string& path,
                        const std::string& generic, OwnerFallback fallback,
                        std::string_view problem) {
    const auto& opened = ctx.package_records();
    if (!opened) {
        // Say why no package is named, so that a reader with a database knows to look at it.
        const Gap& gap = opened.gap();
        if (gap.reason == GapReason::not_found) {
            return generic + " (no package database to name the package: " + gap.message + ")";
        }
        return generic + " (the package database could not be used: " + gap.message + ")";
    }
    const PackageRecords& records = **opened;
    if (auto owner = records.owner_of(path)) {
        const std::string command = records.reinstall_command(owner->package);
        if (owner->package.state != "installed") {
            return "package " + describe(owner->package) + " lists " + path + " but is " +
                   owner->package.state + ": finish its install (" + command + ")";
        }
        return "package " + describe(owner->package) + " lists " + path + ", but " + path + " " +
               std::string(problem) + ": reinstall " + owner->package.name + " (" + command + ")";
    }
    const std::string dir(dir_name(path));
    if (fallback == OwnerFallback::directory) {
        if (auto main = records.main_owner_of_directory(dir)) {
            return "no installed package lists " + path + "; " + describe(*main) +
                   " owns most files in " + dir + ": reinstall " + main->name + " (" +
                   records.reinstall_command(*main) + ")";
        }
    }
    return generic + " (no installed package lists " + path + " in the " +
           std::string(records.manager()) + " database)";
}

std::string listing_package(const ProbeContext& ctx, const std::string& path) {
    const auto& opened = ctx.package_records();
    if (!opened) return "";
    auto owner = (*opened)->owner_of(path);
    return owner ? describe(owner->package) : "";
}

}  // namespace rdmi
