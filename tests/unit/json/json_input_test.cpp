// Tests for the bounded JSON input parser, the one every JSON input goes through: every
// malformed shape is a one-line Gap naming the input, for every kind and both tree types.
#include "json/json_input.hpp"

#include <doctest/doctest.h>

#include <array>
#include <string>

namespace rdmi {
namespace {

constexpr JsonInputKind kTestKind{"file", "a JSON test", std::size_t{1} << 16U};

// Every kind of input the program reads, with how it is named in the tests below.
constexpr std::array<std::pair<const char*, const JsonInputKind*>, 5> kKinds{{
    {"child answer", &json_input::kChildAnswer},
    {"bundle file", &json_input::kBundleFile},
    {"saved document", &json_input::kSavedDocument},
    {"policy", &json_input::kPolicy},
    {"version matrix", &json_input::kVersionMatrix},
}};

template <class BasicJson = nlohmann::json>
std::string gap_of(std::string_view bytes, const JsonInputKind& kind = kTestKind) {
    auto parsed = parse_json_input<BasicJson>(bytes, "in.json", kind);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.gap().reason == GapReason::malformed);
    const std::string& message = parsed.gap().message;
    CHECK(message.rfind("in.json: ", 0) == 0);
    CHECK(message.find('\n') == std::string::npos);
    return message;
}

TEST_CASE("json_too_deep_at counts brackets outside strings only") {
    CHECK(json_too_deep_at("{}", 1) == std::string_view::npos);
    CHECK(json_too_deep_at(R"({"a": [[1], {"b": 2}]})", 3) == std::string_view::npos);
    CHECK(json_too_deep_at(R"({"a": [[1], {"b": 2}]})", 2) == 7);
    CHECK(json_too_deep_at(R"({"a": "[[[[[[", "b": "\"[{"})", 1) == std::string_view::npos);
    CHECK(json_too_deep_at(std::string(10000, '['), 256) == 256);
}

TEST_CASE("parse_json_input accepts a document and nesting up to the cap") {
    auto ok = parse_json_input(R"({"a": [1, 2, {"b": "c"}]})", "in.json", kTestKind);
    REQUIRE(ok);
    CHECK(ok.value()["a"][2]["b"] == "c");
    const std::string at_cap =
        std::string(kMaxJsonInputDepth, '[') + std::string(kMaxJsonInputDepth, ']');
    CHECK(parse_json_input(at_cap, "in.json", kTestKind));
    // Brackets inside strings do not count as nesting.
    CHECK(parse_json_input("[\"" + std::string(1000, '[') + "\\\"[\"]", "in.json", kTestKind));
}

TEST_CASE("parse_json_input keeps the members' order in an ordered tree") {
    auto ordered = parse_json_input<nlohmann::ordered_json>(R"({"b": 1, "a": 2})", "in.json",
                                                            json_input::kSavedDocument);
    REQUIRE(ordered);
    CHECK(ordered->begin().key() == "b");
}

TEST_CASE("parse_json_input: the size cap is the kind's, in both tree types") {
    for (const auto& [name, kind] : kKinds) {
        const char* const label = name;  // clang 14 lambdas cannot capture a binding
        CAPTURE(label);
        // A valid document of exactly the cap is read; one byte more is refused unparsed.
        std::string at_cap = "[]" + std::string(kind->max_bytes - 2, ' ');
        CHECK(parse_json_input(at_cap, "in.json", *kind));
        CHECK(parse_json_input<nlohmann::ordered_json>(at_cap, "in.json", *kind));
        at_cap += ' ';
        const std::string limit = "limit " + std::to_string(kind->max_bytes) + ")";
        CHECK(gap_of(at_cap, *kind) == "in.json: JSON input too large (" +
                                           std::to_string(kind->max_bytes + 1) + " bytes, " +
                                           limit);
        CHECK(gap_of<nlohmann::ordered_json>(at_cap, *kind).find(limit) != std::string::npos);
    }
    // The kinds differ where their inputs do: a policy is small, a child's answer is not.
    CHECK(json_input::kPolicy.max_bytes < json_input::kChildAnswer.max_bytes);
    const std::string two_mib = "[]" + std::string(std::size_t{2} << 20U, ' ');
    CHECK(parse_json_input(two_mib, "in.json", json_input::kChildAnswer));
    CHECK(gap_of(two_mib, json_input::kPolicy).find("too large") != std::string::npos);
}

TEST_CASE("parse_json_input: an empty input says what it should have held") {
    CHECK(gap_of("") == "in.json: empty file (expected a JSON test)");
    CHECK(gap_of(" \n\t\r ") == "in.json: empty file (expected a JSON test)");
    CHECK(gap_of("", json_input::kPolicy) ==
          "in.json: empty file (expected a JSON object with schema_version)");
    CHECK(gap_of("", json_input::kChildAnswer) == "in.json: empty answer (expected a JSON object)");
    for (const auto& [name, kind] : kKinds) {
        const char* const label = name;  // clang 14 lambdas cannot capture a binding
        CAPTURE(label);
        CHECK(gap_of<nlohmann::ordered_json>("\n", *kind).find("in.json: empty ") == 0);
    }
}

TEST_CASE("parse_json_input: truncated input reports line and column") {
    for (const auto& [name, kind] : kKinds) {
        const char* const label = name;  // clang 14 lambdas cannot capture a binding
        CAPTURE(label);
        CHECK(gap_of("{\n  \"a\": [1,\n", *kind).find("invalid JSON at line 3, column 1") !=
              std::string::npos);
        CHECK(gap_of<nlohmann::ordered_json>("{\"a\"", *kind)
                  .starts_with("in.json: invalid JSON at line 1, column 5: "));
        CHECK(gap_of("[\"abc", *kind).find("invalid JSON") != std::string::npos);
    }
}

TEST_CASE("parse_json_input: nesting past the kind's depth is refused before parsing") {
    const std::string deep = std::string(10000, '[') + std::string(10000, ']');
    CHECK(gap_of(deep).find("nested deeper than 256 levels at line 1, column 257") !=
          std::string::npos);
    CHECK(gap_of(std::string(10000, '{')).find("nested deeper") != std::string::npos);
    const std::string one_over =
        std::string(kMaxJsonInputDepth + 1, '[') + std::string(kMaxJsonInputDepth + 1, ']');
    for (const auto& [name, kind] : kKinds) {
        const char* const label = name;  // clang 14 lambdas cannot capture a binding
        CAPTURE(label);
        CHECK(gap_of(one_over, *kind).find("nested deeper") != std::string::npos);
        CHECK(gap_of<nlohmann::ordered_json>(deep, *kind).find("nested deeper") !=
              std::string::npos);
    }
    constexpr JsonInputKind kShallow{"file", "x", 1024, 2};
    CHECK(parse_json_input("[[1]]", "in.json", kShallow));
    CHECK(gap_of("[[[1]]]", kShallow) ==
          "in.json: JSON nested deeper than 2 levels at line 1, column 3");
}

TEST_CASE("parse_json_input: non-UTF-8, NUL, trailing garbage") {
    for (const auto& [name, kind] : kKinds) {
        const char* const label = name;  // clang 14 lambdas cannot capture a binding
        CAPTURE(label);
        CHECK(gap_of("[\"\xff\xfe\"]", *kind).find("invalid JSON at line 1, column 3") !=
              std::string::npos);
        // A lone continuation byte, an overlong '/', a truncated sequence at the very end.
        for (const char* bad : {"{\"a\": \"\x80\"}", "[\"\xc0\xaf\"]", "[\"\xe2\x82"}) {
            CAPTURE(bad);
            CHECK(gap_of<nlohmann::ordered_json>(bad, *kind).find("invalid JSON") !=
                  std::string::npos);
        }
    }
    CHECK(gap_of(std::string("[1,\0 2]", 7)).find("invalid JSON") != std::string::npos);
    // The JSON library stops at a NUL as at the end of the input: a complete document before
    // one must not hide what follows it.
    for (const auto& [name, kind] : kKinds) {
        const char* const label = name;
        CAPTURE(label);
        CHECK(gap_of(std::string("{}\0", 3), *kind) ==
              "in.json: invalid JSON at line 1, column 3: a NUL byte (JSON has none)");
        CHECK(gap_of<nlohmann::ordered_json>(std::string("{\"a\": 1}\n\0{\"a\": 2}", 18), *kind) ==
              "in.json: invalid JSON at line 2, column 1: a NUL byte (JSON has none)");
        CHECK(gap_of(std::string("[\"a\0b\"]", 7), *kind).find("a NUL byte") != std::string::npos);
    }
    CHECK(gap_of("{} {}").find("invalid JSON at line 1, column 4") != std::string::npos);
}

TEST_CASE("parse_json_input: a key repeated in one object names its JSON pointer") {
    CHECK(gap_of(R"({"a": 1, "a": 2})") ==
          "in.json: /a: duplicate key \"a\" (a key may appear once)");
    CHECK(gap_of<nlohmann::ordered_json>(R"({"a": 1, "a": 2})") ==
          "in.json: /a: duplicate key \"a\" (a key may appear once)");
    CHECK(gap_of(R"({"x": [0, {"k": 1, "k": 1}]})").rfind("in.json: /x/1/k: duplicate key", 0) ==
          0);
    CHECK(gap_of(R"({"a/b~": {}, "a/b~": {}})").rfind("in.json: /a~1b~0: duplicate key", 0) == 0);
    // The same key in sibling objects, and after a nested object closes, is not a repeat.
    CHECK(parse_json_input(R"([{"k": 1}, {"k": 2}])", "in.json", kTestKind));
    CHECK(parse_json_input(R"({"o": {"k": 1}, "k": {"o": [1, [2], {"k": 3}]}})", "in.json",
                           kTestKind));
}

TEST_CASE("parse_json_input: a number out of range names file, pointer and reason") {
    const std::string message = gap_of(R"({"schema_version": 1e400})");
    CHECK(message.rfind("in.json: /schema_version: number overflow", 0) == 0);
    CHECK(message.find("out of the range of a double") != std::string::npos);
    CHECK(message.find("internal error") == std::string::npos);
    CHECK(gap_of("[1, 2, -1e999]").rfind("in.json: /2: number overflow", 0) == 0);
    CHECK(gap_of("1e400").rfind("in.json: number overflow", 0) == 0);
}

// The input may be a file only the caller could read (a root MCP server's `diff` argument):
// the message says where the text stops being JSON, never what the text is.
TEST_CASE("a parse error quotes no byte of the input") {
    auto bad = parse_json_input("SECRET-LINE-OF-A-PRIVATE-FILE true", "in.json", kTestKind);
    REQUIRE(!bad);
    CHECK(bad.gap().message.find("SECRET") == std::string::npos);
    CHECK(bad.gap().message.find("line 1, column 1") != std::string::npos);
}

}  // namespace
}  // namespace rdmi
