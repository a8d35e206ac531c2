// RFC 6901 pointers: the escapes, array indexes, and the message for a value that is not there.
#include "json/json_pointer.hpp"

#include <doctest/doctest.h>

namespace rdmi {
namespace {

const nlohmann::ordered_json kDocument = nlohmann::ordered_json::parse(R"({
  "doca": {"version": "3.3.0105", "prefix": "/opt/mellanox/doca"},
  "devices": [{"name": "mlx5_0"}, {"name": "mlx5_1"}],
  "a/b": 1, "m~n": 2, "": 3, "empty": {}, "none": []
})");

}  // namespace

TEST_CASE("a pointer's tokens are unescaped, ~01 is ~1 and not /") {
    CHECK(parse_json_pointer("")->empty());
    CHECK(*parse_json_pointer("/") == std::vector<std::string>{""});
    CHECK(*parse_json_pointer("/a~1b/m~0n") == std::vector<std::string>{"a/b", "m~n"});
    CHECK(*parse_json_pointer("/~01") == std::vector<std::string>{"~1"});
    CHECK(*parse_json_pointer("/a//b") == std::vector<std::string>{"a", "", "b"});
}

TEST_CASE("text that is not a pointer is refused") {
    for (const char* bad : {"doca", "/a~", "/a~2", "/~x", "#/doca"}) {
        INFO(bad);
        auto parsed = parse_json_pointer(bad);
        REQUIRE(!parsed);
        CHECK(parsed.gap().reason == GapReason::malformed);
    }
}

TEST_CASE("values are found through objects, escapes and array indexes") {
    CHECK(**resolve_json_pointer(kDocument, "/doca/version") == "3.3.0105");
    CHECK(**resolve_json_pointer(kDocument, "/devices/1/name") == "mlx5_1");
    CHECK(**resolve_json_pointer(kDocument, "/a~1b") == 1);
    CHECK(**resolve_json_pointer(kDocument, "/m~0n") == 2);
    CHECK(**resolve_json_pointer(kDocument, "/") == 3);
    CHECK(*resolve_json_pointer(kDocument, "") == &kDocument);
}

TEST_CASE("an absent value names the longest prefix that exists and what it holds") {
    auto member = resolve_json_pointer(kDocument, "/doca/versoin");
    REQUIRE(!member);
    CHECK(member.gap().reason == GapReason::not_found);
    CHECK(member.gap().message ==
          "no value there; the longest prefix that exists is /doca, an object whose members are "
          "version, prefix");

    auto top = resolve_json_pointer(kDocument, "/nope/deeper");
    REQUIRE(!top);
    CHECK(top.gap().message.find("is \"\" (the whole document), an object whose members are "
                                 "doca, devices, a~1b, m~0n, , empty, none") != std::string::npos);

    auto index = resolve_json_pointer(kDocument, "/devices/2/name");
    REQUIRE(!index);
    CHECK(index.gap().message ==
          "no value there; the longest prefix that exists is /devices, an array of 2 (indexes 0 "
          "to 1)");

    // RFC 6901: "-" and leading zeros are no index of an existing element.
    CHECK(!resolve_json_pointer(kDocument, "/devices/-"));
    CHECK(!resolve_json_pointer(kDocument, "/devices/01"));
    CHECK(!resolve_json_pointer(kDocument, "/devices/name"));

    auto scalar = resolve_json_pointer(kDocument, "/doca/version/major");
    REQUIRE(!scalar);
    CHECK(scalar.gap().message ==
          "no value there; the longest prefix that exists is /doca/version, a string, which has "
          "no members");
    CHECK(resolve_json_pointer(kDocument, "/empty/x").gap().message.ends_with("an empty object"));
    CHECK(resolve_json_pointer(kDocument, "/none/0").gap().message.ends_with("an empty array"));
}

TEST_CASE("a large object's members are named up to a bound") {
    nlohmann::ordered_json wide = nlohmann::ordered_json::object();
    for (int i = 0; i < 100; ++i) wide["m" + std::to_string(i)] = i;
    auto missing = resolve_json_pointer(wide, "/x");
    REQUIRE(!missing);
    CHECK(missing.gap().message.ends_with("m39, ... (60 more)"));
}

}  // namespace rdmi
