// The contract view of the facts model, and the doca_version preference order.
#include "model/contract_facts.hpp"

#include <string_view>
#include <utility>

namespace rdmi::contract {
namespace {

const VersionSource* find_source(const VersionMatch& match, std::string_view name) {
    for (const auto& src : match.sources) {
        if (src.name == name) return &src;
    }
    return nullptr;
}

}  // namespace

ContractFacts contract_facts(Facts facts, bool with_capabilities) {
    // Moved, not copied: an install can list 100,000 pkg-config modules.
    ContractFacts out;
    out.generated_at = std::move(facts.run.generated_at);
    out.root = std::move(facts.run.root);
    out.live = facts.run.live;
    if (facts.install) out.install = std::move(*facts.install);
    if (facts.system) {
        out.devices = std::move(facts.system->inventory);
        out.platform = std::move(facts.system->platform);
        out.host = std::move(facts.system->host);
    }
    if (facts.samples) {
        out.samples = std::move(facts.samples->paths);
        out.samples_gap = std::move(facts.samples->gap);
    }
    out.pcie_link = std::move(facts.pcie_link);
    out.device_scope = std::move(facts.device_scope);
    if (with_capabilities) {
        static const DocaCapsFacts kNotCollected;
        out.capabilities = contract::device_capabilities(
            facts.run.live, out.install, facts.doca_caps ? *facts.doca_caps : kNotCollected);
    }
    return out;
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
