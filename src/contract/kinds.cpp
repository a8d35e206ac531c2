// The table of known documents. Field lists are typed from the structured-tools contract
// (docs/reference/structured-tools-contract.md).
#include "contract/kinds.hpp"

#include <algorithm>
#include <array>

namespace rdmi::contract {
namespace {

constexpr std::array<std::string_view, 8> kEnvFields = {"version",      "devices", "libraries",
                                                        "sample_paths", "drivers", "hugepages",
                                                        "host_kind",    "bf_mode"};
constexpr std::array<std::string_view, 4> kSnapshotFields = {"snapshot_at", "doca_version",
                                                             "host_kind", "devices"};
constexpr std::array<std::string_view, 7> kStateFields = {
    "side",         "doca_version", "firmware_version", "kernel_version",
    "mlx5_modules", "bf_mode",      "devices"};
constexpr std::array<std::string_view, 4> kValidateFields = {"library", "spec_path", "result",
                                                             "checks"};
constexpr std::array<std::string_view, 3> kMatrixFields = {"schema_version", "generated_at",
                                                           "entries"};

const std::array kKinds{
    DocumentKind{"doca-env", kDocaEnvSchema, true, kEnvFields},
    DocumentKind{"capability-snapshot", kCapabilitySnapshotSchema, true, kSnapshotFields},
    DocumentKind{"collect-state", kCollectStateSchema, true, kStateFields},
    DocumentKind{"validate-before-commit", kValidateSchema, true, kValidateFields},
    DocumentKind{"version-matrix", kVersionMatrixSchema, true, kMatrixFields},
    DocumentKind{"report", "urn:rdmi-probe:schema:report", false, {}},
    DocumentKind{"symbols", "urn:rdmi-probe:schema:symbols", false, {}},
    DocumentKind{"diff", kDiffSchema, false, {}},
    DocumentKind{"error", "urn:rdmi-probe:schema:error", false, {}},
};

}  // namespace

std::span<const DocumentKind> document_kinds() {
    return kKinds;
}

const DocumentKind* kind_by_schema(std::string_view schema_id) {
    for (const auto& kind : kKinds) {
        if (kind.schema_id == schema_id) return &kind;
    }
    return nullptr;
}

Result<const DocumentKind*> identify_document(const Json& document) {
    if (!document.is_object())
        return make_gap(GapReason::malformed, "not a JSON object, so not a known document");
    std::string named;
    if (auto x = document.find("x_rdmi_probe"); x != document.end() && x->is_object()) {
        if (auto s = x->find("schema"); s != x->end() && s->is_string())
            named = s->get<std::string>();
    }
    if (named.empty()) {
        if (auto s = document.find("schema"); s != document.end() && s->is_string())
            named = s->get<std::string>();
    }
    if (!named.empty()) {
        if (const DocumentKind* kind = kind_by_schema(named)) return kind;
        return make_gap(GapReason::malformed,
                        "names schema \"" + named + "\", which rdmi-probe does not know");
    }
    for (const auto& kind : kKinds) {
        if (!kind.contract || document.size() != kind.fields.size()) continue;
        const bool same = std::all_of(kind.fields.begin(), kind.fields.end(),
                                      [&](std::string_view f) { return document.contains(f); });
        if (same) return &kind;
    }
    return make_gap(GapReason::malformed,
                    "not a known document (no x_rdmi_probe.schema, no \"schema\", and its "
                    "top-level fields match no contract shape)");
}

}  // namespace rdmi::contract
