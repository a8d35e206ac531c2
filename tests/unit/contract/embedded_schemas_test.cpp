// The schemas compiled into the binary are byte-for-byte the files in schemas/, all of them.
#include "contract/embedded_schemas.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace rdmi::contract {
namespace {

TEST_CASE("every schemas/*.schema.json is embedded verbatim") {
    const std::filesystem::path dir = std::filesystem::path(RDMI_TEST_SOURCE_DIR) / "schemas";
    std::set<std::string> on_disk;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!name.ends_with(".schema.json")) continue;
        const std::string stem = name.substr(0, name.size() - std::string(".schema.json").size());
        on_disk.insert(stem);
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        const EmbeddedSchema* embedded = find_embedded_schema(stem);
        REQUIRE_MESSAGE(embedded != nullptr, name << " is not embedded (re-run cmake)");
        CHECK_MESSAGE(embedded->text == text.str(), name << " differs from its embedded copy");
    }
    std::set<std::string> compiled;
    for (const auto& s : embedded_schemas()) compiled.insert(std::string(s.name));
    CHECK(compiled == on_disk);
    CHECK(on_disk.contains("doca-env"));
}

TEST_CASE("find_embedded_schema by file name, $id and short id") {
    REQUIRE(find_embedded_schema("collect-state") != nullptr);
    CHECK(find_embedded_schema("collect-state.schema.json") ==
          find_embedded_schema("collect-state"));
    CHECK(find_embedded_schema("urn:rdmi-probe:schema:collect-state") ==
          find_embedded_schema("collect-state"));
    CHECK(find_embedded_schema("report") == find_embedded_schema("rdmi-probe-report"));
    CHECK(find_embedded_schema("nope") == nullptr);
    CHECK(find_embedded_schema("") == nullptr);
    CHECK(schema_id_of(*find_embedded_schema("doca-env")) == "urn:rdmi-probe:schema:doca-env");
}

}  // namespace
}  // namespace rdmi::contract
