// The install probe: runs its steps in order; each step only adds facts.
#include "probes/install/install.hpp"

#include "probes/install/install_parts.hpp"

namespace rdmi {

std::string_view to_string(DocaLayout layout) {
    switch (layout) {
        case DocaLayout::none:
            return "none";
        case DocaLayout::multiarch:
            return "multiarch";
        case DocaLayout::lib64:
            return "lib64";
        case DocaLayout::legacy:
            return "legacy";
    }
    return "none";
}

InstallFacts probe_install(const ProbeContext& ctx) {
    InstallFacts facts;
    const pkgconfig::PkgConfig pc(ctx.fs, ctx.env, {}, ctx.root_machine());
    for (const auto& dir : pc.search_path()) facts.search_path.push_back(dir.path);
    install::locate_prefix(ctx, pc, facts);
    install::probe_modules(ctx, pc, facts);
    install::probe_files(ctx, facts);
    install::probe_versions(ctx, facts);
    install::name_packages(ctx, facts);
    facts.checks = install::derive_checks(facts);
    return facts;
}

}  // namespace rdmi
