// Word wrapping of help text: no line over the width, no word cut.
#include "text/wrap.hpp"

#include <doctest/doctest.h>

namespace rdmi::text {

TEST_CASE("wrap_words fills each line up to the width and never splits a word") {
    const auto lines = wrap_words("the quick brown fox jumps over the lazy dog", 15);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "the quick brown");
    CHECK(lines[1] == "fox jumps over");
    CHECK(lines[2] == "the lazy dog");
    for (const auto& line : lines) CHECK(line.size() <= 15);
}

TEST_CASE("wrap_words keeps a word wider than the width whole, on its own line") {
    const auto lines = wrap_words("see /opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig now", 20);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "see");
    CHECK(lines[1] == "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig");
    CHECK(lines[2] == "now");
}

TEST_CASE("wrap_words: runs of spaces become one, and blank text has no lines") {
    CHECK(wrap_words("", 10).empty());
    CHECK(wrap_words("   ", 10).empty());
    const auto lines = wrap_words("  a   b  ", 10);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == "a b");
}

TEST_CASE("hanging puts the text beside a short head and below a long one") {
    CHECK(hanging("--json", "machine output", 12, 40) == "  --json    machine output\n");
    CHECK(hanging("--a-very-long-option", "text", 12, 40) ==
          "  --a-very-long-option\n            text\n");
    const std::string wrapped = hanging("-x", "one two three four five six seven", 10, 32);
    CHECK(wrapped == "  -x      one two three four\n          five six seven\n");
}

TEST_CASE("hanging moves the text near the margin when a word would not fit beside the head") {
    CHECK(hanging("symbols", "EXPERIMENTAL/stable/deprecated audit", 16, 40) ==
          "  symbols\n      EXPERIMENTAL/stable/deprecated\n      audit\n");
}

TEST_CASE("hanging: every line of a long text fits the width") {
    const std::string body(200, 'a');
    std::string words;
    for (int i = 0; i < 60; ++i) words += "word ";
    for (const std::size_t width : {40U, 60U, 80U, 100U}) {
        const std::string out = hanging("--timeout SECONDS", words, 30, width);
        std::size_t start = 0;
        while (start < out.size()) {
            const std::size_t end = out.find('\n', start);
            CHECK(end - start <= width);
            start = end + 1;
        }
    }
}

}  // namespace rdmi::text
