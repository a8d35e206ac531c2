// Tests for bounded JSON input.
#include "contract/json_input.hpp"
#include "core/json_input.hpp"

#include <doctest/doctest.h>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::contract {
namespace {

TEST_CASE("json_too_deep_at counts brackets outside strings only") {
    CHECK(json_too_deep_at("{}", 1) == std::string_view::npos);
    CHECK(json_too_deep_at(R"({"a": [[1], {"b": 2}]})", 3) == std::string_view::npos);
    CHECK(json_too_deep_at(R"({"a": [[1], {"b": 2}]})", 2) == 7);
    CHECK(json_too_deep_at(R"({"a": "[[[[[[", "b": "\"[{"})", 1) == std::string_view::npos);
    CHECK(json_too_deep_at(std::string(10000, '['), 256) == 256);
}

TEST_CASE("parse_document: empty, deep and invalid input are malformed, never thrown") {
    for (const char* empty : {"", "   \n\t"}) {
        auto r = parse_document(empty);
        REQUIRE_FALSE(r.ok());
        CHECK(r.gap().reason == GapReason::malformed);
        CHECK(r.gap().message.find("empty") != std::string::npos);
    }
    const std::string deep = std::string(10000, '[') + std::string(10000, ']');
    auto d = parse_document(deep);
    REQUIRE_FALSE(d.ok());
    CHECK(d.gap().message.find("nested deeper") != std::string::npos);
    auto bad = parse_document(R"({"a": 1,, })");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.gap().message.find("invalid JSON") != std::string::npos);
    auto trailing = parse_document(R"({"a": 1} {"b": 2})");
    CHECK_FALSE(trailing.ok());
    auto utf = parse_document("{\"a\": \"\xff\"}");
    CHECK_FALSE(utf.ok());
}

TEST_CASE("parse_document accepts 256 levels") {
    const std::string ok = std::string(256, '[') + std::string(256, ']');
    CHECK(parse_document(ok).ok());
}

TEST_CASE("read_document names the path and refuses FIFOs and directories") {
    test::TempTree tree;
    tree.write("/doc.json", R"({"schema": "x"})");
    tree.fifo("/fifo");
    tree.mkdir("/dir");
    auto fs = RootedFs::open(tree.root()).value();
    auto good = read_document(fs, "/doc.json");
    REQUIRE(good.ok());
    CHECK((*good)["schema"] == "x");
    for (const char* path : {"/fifo", "/dir", "/missing"}) {
        auto r = read_document(fs, path);
        REQUIRE_FALSE(r.ok());
        CHECK(r.gap().message.find(path) != std::string::npos);
    }
}

}  // namespace
}  // namespace rdmi::contract
