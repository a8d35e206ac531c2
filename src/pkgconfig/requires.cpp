// PkgConfig::resolve_requires: the transitive Requires closure with cycle detection.
#include <algorithm>
#include <map>
#include <set>

#include "pkgconfig/pkgconfig.hpp"
#include "pkgconfig/version.hpp"

namespace rdmi::pkgconfig {
namespace {

struct Walker {
    const PkgConfig& pc;
    RequiresScope scope;
    std::vector<ResolvedRequire> out;
    std::vector<std::string> chain;               // modules on the current Requires path
    std::set<std::string> expanded;               // modules whose Requires were already listed
    std::map<std::string, Result<Module>> found;  // find() results by name

    const Result<Module>& lookup(const std::string& name) {
        auto it = found.find(name);
        if (it == found.end()) it = found.emplace(name, pc.find(name)).first;
        return it->second;
    }

    std::string chain_text(const std::string& closing) const {
        std::string text;
        bool on = false;
        for (const auto& name : chain) {
            on = on || name == closing;
            if (on) text += name + " -> ";
        }
        return text + closing;
    }

    void edge(const Module& from, const Requirement& req, bool is_private, int depth) {
        ResolvedRequire entry;
        entry.required_by = from.name;
        entry.requirement = req;
        entry.is_private = is_private;
        entry.depth = depth;
        if (std::find(chain.begin(), chain.end(), req.name) != chain.end()) {
            entry.status = RequireStatus::cycle;
            entry.message = "Requires cycle: " + chain_text(req.name);
            out.push_back(std::move(entry));
            return;
        }
        const Result<Module>& target = lookup(req.name);
        if (!target.ok()) {
            entry.status = target.gap().reason == GapReason::not_found ? RequireStatus::not_found
                                                                       : RequireStatus::unreadable;
            entry.message = target.gap().message;
            out.push_back(std::move(entry));
            return;
        }
        entry.version = target->version;
        entry.pc_path = target->pc_path;
        if (satisfies(target->version, req.op, req.version)) {
            entry.status = RequireStatus::satisfied;
        } else {
            entry.status = RequireStatus::version_mismatch;
            entry.message = from.name + " requires " + to_string(req) + ", found " + req.name +
                            " " + target->version + " (" + target->pc_path + ")";
        }
        if (depth >= kMaxRequiresDepth) {
            if (!target->requires_public.empty() ||
                (scope == RequiresScope::with_private && !target->requires_private.empty())) {
                entry.status = RequireStatus::too_deep;
                entry.message = "Requires chain deeper than " + std::to_string(kMaxRequiresDepth) +
                                "; " + req.name + "'s own Requires not followed";
            }
            out.push_back(std::move(entry));
            return;
        }
        out.push_back(std::move(entry));
        if (expanded.insert(req.name).second) {
            // A copy: the walk below adds to `found` and must not depend on its node stability.
            const Module next = target.value();
            walk(next, depth + 1);
        }
    }

    void walk(const Module& module, int depth) {
        chain.push_back(module.name);
        for (const auto& req : module.requires_public) edge(module, req, false, depth);
        if (scope == RequiresScope::with_private) {
            for (const auto& req : module.requires_private) edge(module, req, true, depth);
        }
        chain.pop_back();
    }
};

}  // namespace

std::vector<ResolvedRequire> PkgConfig::resolve_requires(const Module& module,
                                                         RequiresScope scope) const {
    Walker walker{*this, scope, {}, {}, {module.name}, {}};
    walker.walk(module, 1);
    return std::move(walker.out);
}

}  // namespace rdmi::pkgconfig
