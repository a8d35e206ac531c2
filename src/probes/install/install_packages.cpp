// Which package to reinstall for each missing or damaged install file: asked of the package
// database only when something is missing, so a healthy install reads none of it.
#include <algorithm>

#include "probes/install/install_parts.hpp"
#include "probes/install/package_fix.hpp"

namespace rdmi::install {

std::string reinstall_runtime_fix(const std::string& name, bool damaged) {
    return damaged ? "the library file is damaged: reinstall the runtime package of " + name
                   : "the .pc file resolves but its library is missing: reinstall the runtime "
                     "package of " +
                         name;
}

std::string install_tool_fix(const std::string& name) {
    return "install the DOCA package that ships " + name;
}

void name_packages(const ProbeContext& ctx, InstallFacts& facts) {
    const bool doca_found = facts.prefix_exists && facts.layout != DocaLayout::none;
    if (!doca_found) return;  // the fix is installing DOCA, not one package of it
    for (auto& module : facts.stack) {
        if (module.found || !module.gap || module.gap->reason != GapReason::not_found) continue;
        module.package_fix =
            package_fix(ctx, join_path(facts.pc_dir, module.name + ".pc"),
                        "install the DOCA development package that ships " + module.name + ".pc",
                        OwnerFallback::directory);
    }
    // A module of another release: the package it came from, so the fix can name it.
    for (auto& module : facts.stack) {
        const auto& disagreeing = facts.stack_versions.disagreeing;
        if (!module.found || std::find(disagreeing.begin(), disagreeing.end(),
                                       module.name + ".pc") == disagreeing.end())
            continue;
        // A distro link to the .pc is listed by no package: ask about the file it leads to.
        auto real = ctx.fs.real_path(module.pc_path);
        module.owner = listing_package(ctx, real ? *real : module.pc_path);
        if (module.owner.empty() && real) module.owner = listing_package(ctx, module.pc_path);
    }
    for (auto& header : facts.headers) {
        if (header.present) continue;
        header.package_fix =
            package_fix(ctx, header.path, std::string(kReinstallRdmiDev), OwnerFallback::directory);
    }
    for (auto& lib : facts.libraries) {
        if (!lib.present) {
            lib.package_fix = package_fix(ctx, lib.path, reinstall_runtime_fix(lib.name, false),
                                          OwnerFallback::directory);
        } else if (lib.gap) {
            // The package lists the file the links end at (libdoca_rdmi.so.3.3.0105).
            const std::string& file = lib.resolved.empty() ? lib.path : lib.resolved;
            lib.package_fix = package_fix(ctx, file, reinstall_runtime_fix(lib.name, true),
                                          OwnerFallback::directory, "is damaged");
        }
    }
    // A tool is a package of its own: the owner of its directory would not bring it back.
    // (doca_caps's absence is only recorded, not judged: not worth opening the database.)
    if (!facts.dpacc.present) {
        facts.dpacc.package_fix = package_fix(
            ctx, facts.dpacc.path, install_tool_fix(facts.dpacc.name), OwnerFallback::none);
    }
}

}  // namespace rdmi::install
