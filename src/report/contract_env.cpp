// The doca-env document.
#include "json/json_common.hpp"
#include "report/contract_documents.hpp"

#include "contract/kinds.hpp"
#include "probes/install/version_consistency.hpp"
#include "probes/install/versions_json.hpp"
#include "report/contract_common.hpp"

namespace rdmi::json {
namespace {

using contract::Document;
using contract::Json;

const VersionSource* find_source(const VersionMatch& match, std::string_view name) {
    for (const auto& src : match.sources) {
        if (src.name == name) return &src;
    }
    return nullptr;
}

void version_string(Document& doc, const std::string& pointer, const VersionSource* src,
                    bool nullable) {
    auto& slot = doc.body[Json::json_pointer(pointer)];
    if (src == nullptr) {
        slot = nullable ? Json(nullptr) : Json("");
        doc.gap(pointer, Gap{GapReason::error, "no such version source"});
        return;
    }
    doc.source(pointer, src->raw.source);
    if (src->version && !nullable) {
        slot = src->version->to_string();
    } else if (src->raw.ok()) {
        slot = *src->raw.value;
    } else {
        slot = nullable ? Json(nullptr) : Json("");
        if (src->raw.gap) doc.gap(pointer, *src->raw.gap);
    }
}

void versions(Document& doc, const InstallFacts& install) {
    const auto& match = install.contract_versions;
    doc.body["version"] = Json::object();
    version_string(doc, "/version/pkg_config", find_source(match, "doca-common.pc"), false);
    version_string(doc, "/version/applications_version", find_source(match, "applications/VERSION"),
                   false);
    version_string(doc, "/version/doca_caps", find_source(match, "doca_caps --version"), false);
    version_string(doc, "/version/bfb", find_source(match, "bfb"), true);
    // Both four-way matches, by the one rule report and check use (version_consistency.hpp).
    const Consistency verdict = judge_consistency(install);
    doc.body["version"]["consistent"] = verdict.consistent;
    doc.source("/version/consistent", {"derived", verdict.reason});
    Json detail = json::consistency(install);
    detail["rdmi_stack_match"] = json::version_match(install.stack_versions);
    detail["contract_sources_match"] = json::version_match(install.contract_versions);
    doc.extension["consistency"] = std::move(detail);
    // <prefix>/VERSION is in neither match (the contract names applications/VERSION); it is
    // reported beside them, with where it was read.
    doc.extension["version_file"] = json::version_source(install.version_file);
}

const InstalledFile* library_file(const InstallFacts& install, const std::string& name) {
    for (const auto& lib : install.libraries) {
        if (lib.name == name) return &lib;
    }
    return nullptr;
}

void libraries(Document& doc, const contract::ContractFacts& facts) {
    doc.body["libraries"] = Json::array();
    doc.source("/libraries",
               {"pkg-config", facts.install.pc_dir.empty() ? "(no DOCA pkg-config directory)"
                                                           : facts.install.pc_dir});
    std::size_t i = 0;
    Json extension = Json::array();
    for (const ModuleFacts* m : public_libraries(facts.install)) {
        const std::string base = "/libraries/" + std::to_string(i++);
        doc.body["libraries"].push_back(
            object({{"pkg_config_name", m->name},
                    {"installed", m->found},
                    {"pc_path", m->pc_path.empty() ? Json(nullptr) : Json(m->pc_path)}}));
        doc.source(base + "/installed", {"pkg-config", m->pc_path.empty() ? m->name : m->pc_path});
        if (!m->found && m->gap) doc.gap(base + "/pc_path", *m->gap);
        // The contract has no version or library field; diff compares these.
        const InstalledFile* lib = library_file(facts.install, m->name);
        Json path = nullptr;
        Json why = nullptr;
        if (lib != nullptr && lib->present) {
            path = lib->resolved.empty() ? lib->path : lib->resolved;
        } else if (lib != nullptr) {
            why = lib->gap ? lib->gap->message : lib->path + ": missing";
        } else {
            why = m->found ? "not looked up: only the RDMI stack's libraries are resolved"
                           : m->name + " is not installed";
        }
        extension.push_back(object({{"pkg_config_name", m->name},
                                    {"version", m->found ? Json(m->version) : Json(nullptr)},
                                    {"library_path", std::move(path)},
                                    {"library_path_missing", std::move(why)}},
                                   4));
    }
    doc.extension["libraries"] = std::move(extension);
}

void samples(Document& doc, const contract::ContractFacts& facts) {
    doc.body["sample_paths"] = Json::array();
    const std::string root =
        facts.install.prefix.ok() ? join_path(*facts.install.prefix.value, "samples") : "";
    doc.source("/sample_paths", {"file", root});
    if (facts.samples_gap) doc.gap("/sample_paths", *facts.samples_gap);
    for (const auto& s : facts.samples)
        doc.body["sample_paths"].push_back(object({{"library", s.library}, {"path", s.path}}));
}

void drivers(Document& doc, const host::PlatformFacts& p) {
    doc.body["drivers"] = Json::object();
    doc.body["drivers"]["mlx5_core_loaded"] = p.mlx5_core.present.value.value_or(false);
    doc.sourced("/drivers/mlx5_core_loaded", p.mlx5_core.present);
    doc.body["drivers"]["mlx5_ib_loaded"] = p.mlx5_ib.present.value.value_or(false);
    doc.sourced("/drivers/mlx5_ib_loaded", p.mlx5_ib.present);
    contract_string(doc, "/drivers/kernel_version", p.kernel_release);
}

void hugepages(Document& doc, const host::PlatformFacts& p) {
    doc.body["hugepages"] = Json::object();
    // "available" = free pages of the pool, as HugePages_Free counts them.
    doc.body["hugepages"]["available_2m"] = p.hugepages_2m.free_hugepages.value.value_or(0);
    doc.sourced("/hugepages/available_2m", p.hugepages_2m.free_hugepages);
    doc.body["hugepages"]["available_1g"] = p.hugepages_1g.free_hugepages.value.value_or(0);
    doc.sourced("/hugepages/available_1g", p.hugepages_1g.free_hugepages);
    const auto& mounts = p.hugetlbfs_mounts;
    const bool mounted = mounts.ok() && !mounts.value->empty();
    doc.body["hugepages"]["mount_point"] =
        mounted ? Json(mounts.value->front().mount_point) : Json(nullptr);
    doc.sourced("/hugepages/mount_point", mounts);
}

}  // namespace

Document env_document(const contract::ContractFacts& facts) {
    Document doc;
    doc.kind = "doca-env";
    doc.schema_id = std::string(contract::kDocaEnvSchema);
    versions(doc, facts.install);
    contract_devices(doc, "/devices", facts, true);
    libraries(doc, facts);
    samples(doc, facts);
    drivers(doc, facts.platform);
    hugepages(doc, facts.platform);
    doc.body["host_kind"] = host::to_string(facts.host.host_kind);
    doc.source("/host_kind", {"derived", host_kind_evidence(facts.host)});
    contract_bf_mode(doc, facts);
    return doc;
}

}  // namespace rdmi::json
