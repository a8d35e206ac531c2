// --field's values: one a line, in the order asked, strings raw unless a control would break the
// line or reach the terminal.
#include "cli/field_output.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace rdmi::cli {
namespace {

const std::string kDocument = R"({
  "version": {"pkg_config": "3.3.0105", "consistent": true},
  "devices": [{"name": "mlx5_0", "ports": [1, 2]}],
  "count": 2, "nothing": null,
  "name": "line\nbreak", "bell": "a\u0007b", "c1": "a\u0085b", "tab": "a\tb",
  "utf8": "caf\u00e9"
})";

std::string values(std::vector<std::string> pointers) {
    auto out = field_values(kDocument, pointers);
    REQUIRE(out);
    return *out;
}

}  // namespace

TEST_CASE("each pointer's value on its own line, in the order given") {
    CHECK(values({"/version/pkg_config"}) == "3.3.0105\n");
    CHECK(values({"/devices/0/name", "/version/pkg_config", "/devices/0/name"}) ==
          "mlx5_0\n3.3.0105\nmlx5_0\n");
}

TEST_CASE("values other than strings are one line of JSON") {
    CHECK(values({"/version/consistent", "/count", "/nothing"}) == "true\n2\nnull\n");
    CHECK(values({"/devices/0/ports"}) == "[1,2]\n");
    CHECK(values({"/version"}) == "{\"pkg_config\":\"3.3.0105\",\"consistent\":true}\n");
}

TEST_CASE("a string holding a control character is written as a JSON string") {
    CHECK(values({"/name"}) == "\"line\\nbreak\"\n");
    CHECK(values({"/bell"}) == "\"a\\u0007b\"\n");
    CHECK(values({"/tab"}) == "\"a\\tb\"\n");
    // A C1 control (U+0085) is one too; other non-ASCII text stays as it is.
    CHECK(values({"/c1"}) == "\"a\\u0085b\"\n");
    CHECK(values({"/utf8"}) == "caf\xc3\xa9\n");
}

TEST_CASE("a pointer with no value names it, the prefix that exists and its members") {
    auto out = field_values(kDocument, std::vector<std::string>{"/count", "/version/pkgconfig"});
    REQUIRE(!out);
    CHECK(out.gap().message ==
          "--field /version/pkgconfig: no value there; the longest prefix that exists is "
          "/version, an object whose members are pkg_config, consistent");
}

TEST_CASE("a pointer that is not one is refused before any run") {
    CHECK(check_field_pointer("/a/b"));
    CHECK(check_field_pointer(""));
    CHECK(!check_field_pointer("version"));
    CHECK(!check_field_pointer("/a~2"));
}

}  // namespace rdmi::cli
