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

}  // namespace
}  // namespace rdmi
