// dump_to must hand over exactly dump()'s text, in pieces, and stop where the sink refuses.
#include "json/json_common.hpp"

#include <doctest/doctest.h>

#include "json/document_layout.hpp"

#include <string>
#include <vector>

namespace rdmi::json {
namespace {

// A document of about 300 KiB (several 64 KiB pieces) with what needs escaping: quotes,
// control characters, non-ASCII text and invalid UTF-8 (replaced, never thrown on).
Json big_document() {
    Json items = Json::array();
    for (int i = 0; i < 3000; ++i) {
        items.push_back(object({{"name", "item \"" + std::to_string(i) + "\"\t\xc3\xa9"},
                                {"bad", std::string("\xff\xfe", 2)},
                                {"value", i * 0.5},
                                {"flags", Json::array({true, false, nullptr})}}));
    }
    return object({{"schema", "urn:test"}, {"items", std::move(items)}, {"empty", Json::object()}});
}

}  // namespace

TEST_CASE("dump_to hands over dump()'s text in pieces of about 64 KiB") {
    const Json document = big_document();
    std::string joined;
    std::vector<std::size_t> sizes;
    CHECK(dump_to(document, [&](std::string_view piece) {
        joined.append(piece);
        sizes.push_back(piece.size());
        return true;
    }));
    CHECK(joined == dump(document));
    CHECK(sizes.size() > 3);
    // Buffered: every piece but the last is a full one, none much more.
    for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
        CHECK(sizes[i] >= std::size_t{64} << 10U);
        CHECK(sizes[i] < std::size_t{65} << 10U);
    }
    // A small document is one piece, newline included.
    std::string small;
    CHECK(dump_to(Json::object(), [&](std::string_view piece) {
        small.append(piece);
        return true;
    }));
    CHECK(small == "{}\n");
}

TEST_CASE("dump_to stops at the first piece the sink refuses and says so") {
    const Json document = big_document();
    int calls = 0;
    CHECK_FALSE(dump_to(document, [&](std::string_view /*piece*/) {
        ++calls;
        return false;
    }));
    CHECK(calls == 1);
}

TEST_CASE("dump_to writes compact when the process asks for it, and dump() stays indented") {
    const Json document = big_document();
    auto streamed = [&] {
        std::string joined;
        CHECK(dump_to(document, [&](std::string_view piece) {
            joined.append(piece);
            return true;
        }));
        return joined;
    };
    REQUIRE(streamed_layout() == DocumentLayout::indented);
    set_streamed_layout(DocumentLayout::compact);
    const std::string compact = streamed();
    const std::string indented = dump(document);
    set_streamed_layout(DocumentLayout::indented);
    // Byte for byte what the MCP server makes of the indented text: nlohmann's dump(-1).
    CHECK(compact == document.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
    CHECK(compact.size() < indented.size());
    CHECK(indented.find("\n  \"items\"") != std::string::npos);
    CHECK(streamed() == indented);
}

}  // namespace rdmi::json
