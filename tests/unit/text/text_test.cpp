// Tests for the core text helpers and JSON pointer building.
#include "text/text.hpp"

#include <doctest/doctest.h>

#include "json/json_strict.hpp"

namespace rdmi {

TEST_CASE("join puts the separator between each two items, empty ones included") {
    CHECK(join({}) == "");
    CHECK(join({"a"}) == "a");
    CHECK(join({"a", "b", "c"}) == "a, b, c");
    CHECK(join({"a", "b"}, "; ") == "a; b");
    CHECK(join({"", "b"}, ",") == ",b");
}

TEST_CASE("trim removes only the given characters, at both ends") {
    CHECK(trim("  a b \t\n") == "a b");
    CHECK(trim("\v\fx\r") == "x");
    CHECK(trim("   ") == "");
    CHECK(trim("") == "");
    CHECK(trim(" a\n", " \t") == "a\n");
    CHECK(trim("\ta ", " \t\r") == "a");
}

TEST_CASE("split_lines: a final newline starts no line, inner empty lines are kept") {
    CHECK(split_lines("").empty());
    CHECK(split_lines("a") == std::vector<std::string_view>{"a"});
    CHECK(split_lines("a\n") == std::vector<std::string_view>{"a"});
    CHECK(split_lines("a\n\nb") == std::vector<std::string_view>{"a", "", "b"});
    CHECK(split_lines("\n") == std::vector<std::string_view>{""});
    CHECK(split_lines("a\r\nb") == std::vector<std::string_view>{"a\r", "b"});
}

TEST_CASE("split_items: non-empty pieces between any separator, trimmed of the blanks given") {
    using Items = std::vector<std::string_view>;
    CHECK(split_items("", ",").empty());
    CHECK(split_items(",,", ",").empty());
    CHECK(split_items("a,,b,", ",") == Items{"a", "b"});
    CHECK(split_items("a, b", ",") == Items{"a", " b"});
    CHECK(split_items(" a ,\n\tb\r\n ,", ",\n", " \t\r") == Items{"a", "b"});
    CHECK(split_items("one", ",\n") == Items{"one"});
}

TEST_CASE("a pointer to a member escapes the key as one token") {
    CHECK(json_pointer_append("", "a") == "/a");
    CHECK(json_pointer_append("/x", "a/b~c") == "/x/a~1b~0c");
    CHECK(json_pointer_append("/x", "0") == "/x/0");
}

}  // namespace rdmi
