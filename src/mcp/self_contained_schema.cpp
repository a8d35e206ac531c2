// Inlining cross-schema $refs: the SDK's default validator resolves no $id it was not given, and
// one tool whose outputSchema it cannot compile breaks the client's whole tool listing.
#include "mcp/self_contained_schema.hpp"

#include <map>
#include <string>

#include "contract/embedded_schemas.hpp"

namespace rdmi::mcp {
namespace {

using Json = nlohmann::ordered_json;

/// Where each inlined schema lives in the self-contained one, by its $id.
using Placement = std::map<std::string, std::string, std::less<>>;

Result<Json> parse_embedded(std::string_view name, const contract::EmbeddedSchema** found) {
    const auto* schema = contract::find_embedded_schema(name);
    if (schema == nullptr)
        return make_gap(GapReason::not_found, "no embedded schema " + std::string(name));
    *found = schema;
    return Json::parse(schema->text);
}

// Rewrites, in place, every "$ref" of `node`: to an inlined schema's $id (with or without a
// fragment) → its place; a local "#..." of an inlined copy (`base` non-empty) → under its place.
// An $id not placed yet is added to `wanted`.
void rewrite_refs(Json& node, const std::string& base, const Placement& placed,
                  std::map<std::string, bool, std::less<>>& wanted) {
    if (node.is_array()) {
        for (auto& item : node) rewrite_refs(item, base, placed, wanted);
        return;
    }
    if (!node.is_object()) return;
    for (auto& [key, value] : node.items()) {
        if (key == "$ref" && value.is_string()) {
            const std::string ref = value.get<std::string>();
            const auto hash = ref.find('#');
            const std::string target = ref.substr(0, hash);
            const std::string fragment = hash == std::string::npos ? "" : ref.substr(hash + 1);
            if (target.empty()) {
                if (!base.empty()) value = "#" + base + fragment;
                continue;
            }
            const auto place = placed.find(target);
            if (place == placed.end()) {
                wanted[target] = true;
                continue;
            }
            value = "#" + place->second + fragment;
            continue;
        }
        rewrite_refs(value, base, placed, wanted);
    }
}

}  // namespace

Result<Json> self_contained_schema(std::string_view name) {
    const contract::EmbeddedSchema* root_schema = nullptr;
    auto root = parse_embedded(name, &root_schema);
    if (!root) return root.gap();
    Json out = std::move(root).value();
    out.erase("$id");
    // Gather the $ids the root (and, transitively, what it pulls in) references.
    Placement placed;
    std::map<std::string, bool, std::less<>> wanted;
    rewrite_refs(out, "", placed, wanted);
    while (!wanted.empty()) {
        const std::string id = wanted.begin()->first;
        wanted.erase(wanted.begin());
        if (placed.contains(id)) continue;
        const contract::EmbeddedSchema* schema = nullptr;
        auto inlined = parse_embedded(id, &schema);
        if (!inlined)
            return make_gap(GapReason::malformed,
                            std::string(name) + " references " + id + ", which is not embedded");
        Json copy = std::move(inlined).value();
        copy.erase("$id");
        copy.erase("$schema");
        const std::string place = "/$defs/" + std::string(schema->name);
        placed[id] = place;
        // The copy's own references: local ones move under its place, others are gathered.
        rewrite_refs(copy, place, placed, wanted);
        out["$defs"][std::string(schema->name)] = std::move(copy);
    }
    // Now every gathered $id has its place: point the root's (and the copies') refs there.
    std::map<std::string, bool, std::less<>> none;
    rewrite_refs(out, "", placed, none);
    return out;
}

}  // namespace rdmi::mcp
