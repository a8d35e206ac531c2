// The RDMI stack's pkg-config modules and every doca-* module in DOCA's pc dir.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "probes/install/install_parts.hpp"

namespace rdmi::install {
namespace {

void fill_from(const pkgconfig::Module& module, ModuleFacts& facts) {
    ModuleFacts parsed = module_facts_from(module);
    parsed.name = std::move(facts.name);
    parsed.on_search_path = facts.on_search_path;
    facts = std::move(parsed);
}

ModuleFacts probe_module(const pkgconfig::PkgConfig& pc, const pkgconfig::PkgConfig& with_doca_dir,
                         const std::string& pc_dir, const std::string& name) {
    ModuleFacts facts;
    facts.name = name;
    auto found = pc.find(name);
    if (found.ok()) {
        facts.on_search_path = true;
        fill_from(*found, facts);
    } else if (found.gap().reason != GapReason::not_found) {
        // The module exists but cannot be read or parsed: that is the finding.
        facts.gap = found.gap();
        return facts;
    } else if (!pc_dir.empty()) {
        auto local = pc.load_file(join_path(pc_dir, name + ".pc"));
        if (local.ok()) {
            fill_from(*local, facts);
        } else {
            facts.gap = local.gap().reason == GapReason::not_found ? found.gap() : local.gap();
            return facts;
        }
    } else {
        facts.gap = found.gap();
        return facts;
    }
    auto module = facts.on_search_path ? found : pc.load_file(facts.pc_path);
    if (module.ok()) {
        for (const auto& req : with_doca_dir.resolve_requires(*module)) {
            if (req.status == pkgconfig::RequireStatus::satisfied) continue;
            // A stack module that is missing or unusable has its own check; name it once.
            const bool own_check = std::find(kRdmiStackModules.begin(), kRdmiStackModules.end(),
                                             req.requirement.name) != kRdmiStackModules.end();
            if (own_check && (req.status == pkgconfig::RequireStatus::not_found ||
                              req.status == pkgconfig::RequireStatus::unreadable)) {
                continue;
            }
            const bool seen = std::any_of(
                facts.unresolved.begin(), facts.unresolved.end(),
                [&](const UnresolvedRequirement& u) { return u.name == req.requirement.name; });
            if (seen) continue;
            std::string constraint = req.requirement.op.empty()
                                         ? ""
                                         : req.requirement.op + " " + req.requirement.version;
            facts.unresolved.push_back(
                UnresolvedRequirement{req.requirement.name, constraint, req.message});
        }
    }
    return facts;
}

}  // namespace

void probe_modules(const ProbeContext& ctx, const pkgconfig::PkgConfig& pc, InstallFacts& facts) {
    std::vector<std::string> extra;
    if (!facts.pc_dir.empty()) extra.push_back(facts.pc_dir);
    const pkgconfig::PkgConfig with_doca_dir(ctx.fs, ctx.env, extra, ctx.root_machine());
    for (const char* name : kRdmiStackModules) {
        facts.stack.push_back(probe_module(pc, with_doca_dir, facts.pc_dir, name));
    }
    if (facts.pc_dir.empty()) return;
    auto listing = pc.list_dir_modules(facts.pc_dir);
    if (!listing) {
        ctx.log.warn("{}", listing.gap().message);
        return;
    }
    // The directory is resolved once for all its files, not once per file.
    const auto dir = ctx.fs.dir_files(facts.pc_dir);
    for (const auto& entry : *listing) {
        if (entry.name.rfind("doca-", 0) != 0) continue;
        ModuleFacts module;
        module.name = entry.name;
        // A directory can hold any number of modules: when the search path cannot hold this
        // one, it is read without being kept and without a search that would keep its miss.
        const bool findable = pc.may_find(entry.name);
        auto parsed = findable ? pc.load_file(entry.pc_path, dir.get())
                               : pc.load_file_once(entry.pc_path, dir.get());
        if (parsed.ok()) {
            fill_from(*parsed, module);
            if (findable) {
                auto visible = pc.find(entry.name);
                module.on_search_path = visible.ok() && visible->version == module.version;
            }
        } else {
            module.pc_path = entry.pc_path;
            module.gap = parsed.gap();
        }
        facts.doca_modules.push_back(std::move(module));
    }
}

}  // namespace rdmi::install

namespace rdmi {

ModuleFacts module_facts_from(const pkgconfig::Module& module) {
    ModuleFacts facts;
    facts.name = module.name;
    facts.found = true;
    facts.pc_path = module.pc_path;
    facts.version = module.version;
    auto var = [&](const char* key) {
        auto it = module.variables.find(key);
        return it == module.variables.end() ? std::string() : it->second;
    };
    facts.prefix = var("prefix");
    facts.libdir = var("libdir");
    facts.includedir = var("includedir");
    for (const auto& token : module.libs) {
        if (token.size() > 2 && token.starts_with("-l"))
            facts.library_names.push_back(token.substr(2));
    }
    return facts;
}

}  // namespace rdmi
