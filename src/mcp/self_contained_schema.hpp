// A published schema made self-contained, for an MCP tool's outputSchema: a client validates it
// alone, with no way to fetch the other schemas it references by $id.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace rdmi::mcp {

/// The embedded schema `name` with every schema it references by `$id` copied under its
/// `$defs` (as `$defs/<that schema's name>`) and each such `$ref` pointed there; the copy has
/// no `$id` (it is not the published document) and keeps `$schema`. Gap when a schema is not
/// embedded or a referenced `$id` is unknown.
Result<nlohmann::ordered_json> self_contained_schema(std::string_view name);

}  // namespace rdmi::mcp
