// The version_matrix section of the full report.
#include "probes/version_matrix_json.hpp"
#include "json/json_common.hpp"

namespace rdmi::json {

Json version_matrix(const VersionMatrixFacts& facts) {
    Json entries = Json::array();
    if (facts.matrix) {
        for (const auto& e : facts.matrix->entries) {
            entries.push_back(
                object({{"library", e.library},
                        {"capability", e.capability},
                        {"display_name", e.display_name},
                        {"min_doca_version", e.min_doca_version},
                        {"max_doca_version",
                         e.max_doca_version ? Json(*e.max_doca_version) : Json(nullptr)},
                        {"available", e.available ? Json(*e.available) : Json(nullptr)}}));
        }
    }
    return object(
        {{"path", facts.path},
         {"present", facts.present},
         {"valid", facts.matrix.has_value()},
         {"gap", optional_gap(facts.gap)},
         {"schema_version", facts.matrix ? Json(facts.matrix->schema_version) : Json(nullptr)},
         {"generated_at", facts.matrix ? Json(facts.matrix->generated_at) : Json(nullptr)},
         {"install_version", sourced(facts.install_version)},
         {"entries", std::move(entries)}});
}

}  // namespace rdmi::json
