// probe_samples() and the list of public DOCA libraries it looks for.
#include "probes/samples.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

namespace rdmi {

std::vector<const ModuleFacts*> public_libraries(const InstallFacts& install) {
    std::vector<const ModuleFacts*> out;
    // A pkg-config directory can hold any number of doca-*.pc files: a set keeps this linear.
    std::unordered_set<std::string_view> seen;
    // A copy in DOCA's pc dir that pkg-config does not resolve (another doca-dpa.pc earlier on
    // the search path, or a broken one there) is not the module a build gets, nor the one the
    // consistency verdict judges: for the RDMI stack's modules the stack's own lookup speaks.
    // A stale doca-dpa.pc 3.2.1025 on PKG_CONFIG_PATH was reported as the pc dir's 3.3.0105.
    for (const auto& module : install.stack) seen.insert(module.name);
    for (const auto& module : install.doca_modules) {
        if (module.on_search_path || !seen.contains(module.name)) out.push_back(&module);
    }
    std::unordered_set<std::string_view> listed;
    for (const auto* module : out) listed.insert(module->name);
    for (const auto& module : install.stack) {
        if (listed.insert(module.name).second) out.push_back(&module);
    }
    std::sort(out.begin(), out.end(),
              [](const ModuleFacts* a, const ModuleFacts* b) { return a->name < b->name; });
    return out;
}

SamplesFacts probe_samples(const ProbeContext& ctx, const InstallFacts& install) {
    SamplesFacts facts;
    if (!install.prefix.ok()) return facts;
    const std::string root = join_path(*install.prefix.value, "samples");
    auto listing = ctx.fs.list_dir(root);
    if (!listing) {
        facts.gap = listing.gap();
        return facts;
    }
    // One stat per library of a large pkg-config directory is most of this; only a name the
    // listing holds can be a directory (a link to one is still followed by the stat).
    std::unordered_set<std::string_view> names;
    names.reserve(listing->size());
    for (const auto& entry : *listing) names.insert(entry.name);
    for (const ModuleFacts* module : public_libraries(install)) {
        // DOCA names sample directories after the library's C prefix: samples/doca_rdma.
        std::string dir = module->name;
        std::replace(dir.begin(), dir.end(), '-', '_');
        if (!names.contains(dir)) continue;
        const std::string path = join_path(root, dir);
        auto info = ctx.fs.stat(path);
        if (info && info->type == FileType::directory) facts.paths.push_back({module->name, path});
    }
    return facts;
}

}  // namespace rdmi
