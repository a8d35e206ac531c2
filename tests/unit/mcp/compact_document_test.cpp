// Tests for compact_document(): the compact text is what a parse and dump(-1) would give, byte for
// byte, and every text that a parse could give back otherwise is left to the parse (nullopt).
#include "mcp/compact_document.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rdmi::mcp {
namespace {

using Json = nlohmann::ordered_json;

std::string parsed_and_dumped(const std::string& text) {
    return Json::parse(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

TEST_CASE("a document the program writes comes out as its parse's compact dump") {
    Json doc = Json::object();
    doc["schema"] = "urn:rdmi-probe:schema:report";
    doc["duration_ms"] = 4.0625;
    doc["ratio"] = 0.1;
    doc["big"] = 1e300;
    doc["small"] = -2.5e-7;
    doc["count"] = -42;
    doc["unsigned"] = 123456789012345678ULL;  // 18 digits, the most kept
    doc["zero"] = 0;
    doc["flags"] = Json::array({true, false, nullptr});
    doc["empty_object"] = Json::object();
    doc["empty_array"] = Json::array();
    doc["text"] = std::string(
                      "quote \" backslash \\ slash / tab \t nl \n cr \r bs \b ff \f "
                      "esc \x1b nul ") +
                  std::string(1, '\0') + " del \x7f é 日本 😀";
    doc["nested"] = Json::array({Json::object({{"a", Json::array({1, 2, Json::array()})}})});
    doc["invalid utf-8"] = std::string(
        "a\xff"
        "b");  // dumped as U+FFFD, then valid
    for (const int indent : {2, 1, 4}) {
        const std::string text =
            doc.dump(indent, ' ', false, Json::error_handler_t::replace) + "\n";
        const auto compact = compact_document(text, 256);
        REQUIRE(compact.has_value());
        CHECK(*compact == parsed_and_dumped(text));
    }
}

TEST_CASE("whatever a parse would write otherwise is left to it") {
    const std::vector<std::string> texts{
        "",
        "   ",
        "[1]",                                           // not an object
        "{\"a\":1",                                      // cut short
        "{\"a\":1}}",                                    // something after it
        "{\"a\":1} x",                                   //
        "{\"a\":[1,]}",                                  // a trailing comma
        "{\"a\" 1}",                                     // no colon
        "{\"a\":\"\\/\"}",                               // an escape the writer never writes
        "{\"a\":\"\\u0041\"}",                           //
        "{\"a\":\"\\u001B\"}",                           // upper-case hex
        "{\"a\":\"\\u000a\"}",                           // \n has a short form
        "{\"a\":\"\\ud83d\\ude00\"}",                    // a surrogate pair
        "{\"a\":\"\x01\"}",                              // a raw control
        "{\"a\":\"\xff\"}",                              // invalid UTF-8
        "{\"a\":\"\xc0\xaf\"}",                          // overlong
        "{\"a\":\"\xed\xa0\x80\"}",                      // a surrogate in UTF-8
        "{\"a\":-0}",                                    //
        "{\"a\":1E5}",                                   // the writer prints 100000.0
        "{\"a\":1.50}",                                  // not the shortest form
        "{\"a\":18446744073709551615}",                  // past the safe digits
        "{\"a\":01}",                                    //
        "{\"a\":tru}",                                   //
        "{\"schema\":\"urn:rdmi-probe:schema:error\"}",  // the error document
        "{\"x\":{\"schema\":1}}",                        // a schema that is not a string
        "{\"schema\":[\"s\"]}",                          //
    };
    for (const auto& text : texts) {
        CAPTURE(text);
        CHECK_FALSE(compact_document(text, 256).has_value());
    }
}

TEST_CASE("a document deeper than the limit is left to the parse, which refuses it") {
    std::string deep = "{\"a\":";
    for (int i = 0; i < 10; ++i) deep += "[";
    for (int i = 0; i < 10; ++i) deep += "]";
    deep += "}";
    CHECK(compact_document(deep, 11).has_value());
    CHECK_FALSE(compact_document(deep, 10).has_value());
}

TEST_CASE("the compact text escaped is what the writer makes of it as a string") {
    const std::string text =
        std::string("{\"a\":\"q\\\"b\\\\\"} \t\r\n\b\f\x1f\x7f é ") + std::string(1, '\0');
    std::string escaped;
    append_json_escaped(escaped, text);
    CHECK("\"" + escaped + "\"" == Json(text).dump(-1, ' ', false));
    std::string empty;
    append_json_escaped(empty, "");
    CHECK(empty.empty());
    // Every ASCII byte, after text already in the buffer (which stays as it was).
    std::string ascii;
    for (int c = 0; c < 0x80; ++c) ascii += static_cast<char>(c);
    const std::string dumped = Json(ascii).dump(-1, ' ', false);
    std::string after = "prefix:";
    append_json_escaped(after, ascii);
    CHECK(after == "prefix:" + dumped.substr(1, dumped.size() - 2));
    // Bytes past ASCII pass as they are (the writer checked the document's UTF-8).
    std::string high;
    for (int c = 0x80; c < 0x100; ++c) high += static_cast<char>(c);
    std::string copied;
    append_json_escaped(copied, high);
    CHECK(copied == high);
}

}  // namespace
}  // namespace rdmi::mcp
