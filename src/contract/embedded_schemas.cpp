// Lookup over the embedded schemas (the table itself is generated).
#include "contract/embedded_schemas.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace rdmi::contract {

std::string schema_id_of(const EmbeddedSchema& schema) {
    auto parsed = nlohmann::json::parse(schema.text, nullptr, false);
    if (!parsed.is_object() || !parsed.contains("$id") || !parsed["$id"].is_string()) return "";
    return parsed["$id"].get<std::string>();
}

const EmbeddedSchema* find_embedded_schema(std::string_view name) {
    std::string_view stem = name;
    if (stem.ends_with(".schema.json")) stem.remove_suffix(std::string_view(".schema.json").size());
    for (const auto& schema : embedded_schemas()) {
        if (schema.name == stem) return &schema;
    }
    constexpr std::string_view kUrn = "urn:rdmi-probe:schema:";
    for (const auto& schema : embedded_schemas()) {
        const std::string id = schema_id_of(schema);
        if (id == name || (id.starts_with(kUrn) && id.substr(kUrn.size()) == name)) return &schema;
    }
    return nullptr;
}

}  // namespace rdmi::contract
