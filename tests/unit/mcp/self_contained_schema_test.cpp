// Tests for self_contained_schema(): every tool's outputSchema references only itself, and every
// reference resolves inside it.
#include "mcp/self_contained_schema.hpp"

#include <doctest/doctest.h>

#include <string>

#include "contract/embedded_schemas.hpp"

namespace rdmi::mcp {
namespace {

using Json = nlohmann::ordered_json;

// Every "$ref" under `node`, as written.
void collect_refs(const Json& node, std::vector<std::string>& refs) {
    if (node.is_object()) {
        for (const auto& [key, value] : node.items()) {
            if (key == "$ref" && value.is_string()) refs.push_back(value.get<std::string>());
            collect_refs(value, refs);
        }
    } else if (node.is_array()) {
        for (const auto& item : node) collect_refs(item, refs);
    }
}

}  // namespace

TEST_CASE("every embedded schema made self-contained has only local references that resolve") {
    for (const auto& embedded : contract::embedded_schemas()) {
        CAPTURE(embedded.name);
        auto schema = self_contained_schema(embedded.name);
        REQUIRE(schema);
        CHECK_FALSE(schema->contains("$id"));
        std::vector<std::string> refs;
        collect_refs(*schema, refs);
        for (const auto& ref : refs) {
            CAPTURE(ref);
            REQUIRE(ref.starts_with("#"));
            const Json::json_pointer pointer(ref.substr(1));
            CHECK(schema->contains(pointer));
        }
    }
}

TEST_CASE("a schema that references the extension gets it under $defs, its own references moved") {
    auto env = self_contained_schema("doca-env");
    REQUIRE(env);
    REQUIRE(env->contains(Json::json_pointer("/$defs/rdmi-probe-extension/$defs")));
    CHECK(env->at(Json::json_pointer("/properties/x_rdmi_probe/$ref")) ==
          "#/$defs/rdmi-probe-extension");
    const auto text = env->dump();
    CHECK(text.find("urn:rdmi-probe:schema:x-rdmi-probe") == std::string::npos);
    // The extension's own "$schema" and "$id" are gone; the root keeps its "$schema".
    CHECK_FALSE(env->at(Json::json_pointer("/$defs/rdmi-probe-extension")).contains("$id"));
    CHECK(env->contains("$schema"));
}

TEST_CASE("an unknown schema is a gap, not a throw") {
    CHECK_FALSE(self_contained_schema("no-such-schema"));
}

}  // namespace rdmi::mcp
