// The JSON Schemas of schemas/, compiled into the binary (see cmake/EmbedSchemas.cmake).
#pragma once

#include <span>
#include <string_view>

namespace rdmi::contract {

/// One schema file: its name (the file name without .schema.json) and its text, verbatim.
struct EmbeddedSchema {
    std::string_view name;  ///< "doca-env", "rdmi-probe-report", ...
    std::string_view text;
};

/// Every embedded schema, by name.
std::span<const EmbeddedSchema> embedded_schemas();

/// The schema called `name`: a file name ("doca-env", "doca-env.schema.json"), an $id
/// ("urn:rdmi-probe:schema:report") or the last part of an $id ("report"); nullptr if none.
const EmbeddedSchema* find_embedded_schema(std::string_view name);

/// The $id a schema text declares, or "" when it has none (or is not JSON).
std::string schema_id_of(const EmbeddedSchema& schema);

}  // namespace rdmi::contract
