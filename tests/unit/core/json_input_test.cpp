// Tests for the bounded JSON input parser: every malformed shape is a one-line Gap naming the
// input.
#include "core/json_input.hpp"

#include <doctest/doctest.h>

#include <string>

namespace rdmi {
namespace {

std::string gap_of(std::string_view bytes) {
    auto parsed = parse_json_input(bytes, "in.json");
    REQUIRE_FALSE(parsed);
    CHECK(parsed.gap().reason == GapReason::malformed);
    const std::string& message = parsed.gap().message;
    CHECK(message.rfind("in.json: ", 0) == 0);
    CHECK(message.find('\n') == std::string::npos);
    return message;
}

TEST_CASE("parse_json_input accepts a document and nesting up to the cap") {
    auto ok = parse_json_input(R"({"a": [1, 2, {"b": "c"}]})", "in.json");
    REQUIRE(ok);
    CHECK(ok.value()["a"][2]["b"] == "c");
    const std::string at_cap =
        std::string(kMaxJsonInputDepth, '[') + std::string(kMaxJsonInputDepth, ']');
    CHECK(parse_json_input(at_cap, "in.json"));
    // Brackets inside strings do not count as nesting.
    CHECK(parse_json_input("[\"" + std::string(1000, '[') + "\\\"[\"]", "in.json"));
}

TEST_CASE("parse_json_input: empty, whitespace") {
    CHECK(gap_of("").find("empty JSON input") != std::string::npos);
    CHECK(gap_of(" \n\t ").find("empty JSON input") != std::string::npos);
}

TEST_CASE("parse_json_input: truncated document reports line and column") {
    const std::string message = gap_of("{\n  \"a\": [1,\n");
    CHECK(message.find("invalid JSON at line 3, column 1") != std::string::npos);
}

TEST_CASE("parse_json_input: 10k-deep nesting is refused before parsing") {
    const std::string deep = std::string(10000, '[') + std::string(10000, ']');
    const std::string message = gap_of(deep);
    CHECK(message.find("nested deeper than 256 levels at line 1, column 257") != std::string::npos);
    CHECK(gap_of(std::string(10000, '{')).find("nested deeper") != std::string::npos);
}

TEST_CASE("parse_json_input: oversized input is refused") {
    const std::string huge(kMaxJsonInputBytes + 1, ' ');
    CHECK(gap_of(huge).find("too large") != std::string::npos);
}

TEST_CASE("parse_json_input: non-UTF-8, NUL, trailing garbage") {
    CHECK(gap_of("[\"\xff\xfe\"]").find("invalid JSON") != std::string::npos);
    CHECK(gap_of(std::string("[1,\0 2]", 7)).find("invalid JSON") != std::string::npos);
    CHECK(gap_of("{} {}").find("invalid JSON at line 1, column 4") != std::string::npos);
}

TEST_CASE("parse_json_input: a key repeated in one object names its JSON pointer") {
    CHECK(gap_of(R"({"a": 1, "a": 2})") ==
          "in.json: /a: duplicate key \"a\" (a key may appear once)");
    CHECK(gap_of(R"({"x": [0, {"k": 1, "k": 1}]})").rfind("in.json: /x/1/k: duplicate key", 0) ==
          0);
    CHECK(gap_of(R"({"a/b~": {}, "a/b~": {}})").rfind("in.json: /a~1b~0: duplicate key", 0) == 0);
    // The same key in sibling objects, and after a nested object closes, is not a repeat.
    CHECK(parse_json_input(R"([{"k": 1}, {"k": 2}])", "in.json"));
    CHECK(parse_json_input(R"({"o": {"k": 1}, "k": {"o": [1, [2], {"k": 3}]}})", "in.json"));
}

TEST_CASE("parse_json_input: a number out of range names file, pointer and reason") {
    const std::string message = gap_of(R"({"schema_version": 1e400})");
    CHECK(message.rfind("in.json: /schema_version: number overflow", 0) == 0);
    CHECK(message.find("out of the range of a double") != std::string::npos);
    CHECK(message.find("internal error") == std::string::npos);
    CHECK(gap_of("[1, 2, -1e999]").rfind("in.json: /2: number overflow", 0) == 0);
    CHECK(gap_of("1e400").rfind("in.json: number overflow", 0) == 0);
}

}  // namespace
}  // namespace rdmi
