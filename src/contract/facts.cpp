// Collection of the contract facts and the doca_version preference order.
#include "contract/facts.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "sysfs/devices.hpp"

namespace rdmi::contract {
namespace {

const VersionSource* find_source(const VersionMatch& match, std::string_view name) {
    for (const auto& src : match.sources) {
        if (src.name == name) return &src;
    }
    return nullptr;
}

void find_samples(const ProbeContext& ctx, ContractFacts& facts) {
    if (!facts.install.prefix.ok()) return;
    const std::string root = join_path(*facts.install.prefix.value, "samples");
    auto listing = ctx.fs.list_dir(root);
    if (!listing) {
        facts.samples_gap = listing.gap();
        return;
    }
    // One stat per library of a large pkg-config directory is most of this; only a name the
    // listing holds can be a directory (a link to one is still followed by the stat).
    std::unordered_set<std::string_view> names;
    names.reserve(listing->size());
    for (const auto& entry : *listing) names.insert(entry.name);
    for (const ModuleFacts* module : public_libraries(facts.install)) {
        // DOCA names sample directories after the library's C prefix: samples/doca_rdma.
        std::string dir = module->name;
        std::replace(dir.begin(), dir.end(), '-', '_');
        if (!names.contains(dir)) continue;
        const std::string path = join_path(root, dir);
        auto info = ctx.fs.stat(path);
        if (info && info->type == FileType::directory)
            facts.samples.push_back({module->name, path});
    }
}

}  // namespace

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

ContractFacts collect_contract_facts(const ProbeContext& ctx, bool with_capabilities) {
    ContractFacts facts;
    facts.root = ctx.fs.root();
    facts.live = ctx.live();
    facts.install = probe_install(ctx);
    facts.devices = sysfs::scan_devices(ctx.fs);
    facts.platform = sysfs::scan_platform(ctx.fs);
    facts.host = sysfs::classify_host(facts.platform, facts.devices);
    find_samples(ctx, facts);
    if (with_capabilities) facts.capabilities = discover_device_capabilities(ctx, facts.install);
    return facts;
}

ResolvedDocaVersion resolve_doca_version(const InstallFacts& install) {
    ResolvedDocaVersion out;
    // The contract names `doca_caps --version`; the design prefers the runtime library when
    // doca_caps is absent, and doca-common.pc says what the install declares.
    const std::pair<const VersionMatch*, std::string_view> order[] = {
        {&install.contract_versions, "doca_caps --version"},
        {&install.stack_versions, "runtime"},
        {&install.stack_versions, "doca-common.pc"},
    };
    for (const auto& [match, name] : order) {
        const VersionSource* src = find_source(*match, name);
        if (src == nullptr) continue;
        if (src->version) {
            out.version = Sourced<std::string>::of(src->version->to_string(), src->raw.source);
            return out;
        }
        out.from_fallback = true;
        if (src->raw.gap) {
            out.skipped.push_back(*src->raw.gap);
        } else {
            out.skipped.push_back(
                Gap{GapReason::malformed, std::string(name) + ": no DOCA version in \"" +
                                              src->raw.value.value_or("") + "\""});
        }
    }
    out.version = Sourced<std::string>::missing(
        Gap{GapReason::not_found,
            "no DOCA version: doca_caps, the runtime library and "
            "doca-common.pc all failed"},
        Provenance{"derived", "doca_caps --version, runtime, doca-common.pc"});
    return out;
}

}  // namespace rdmi::contract
