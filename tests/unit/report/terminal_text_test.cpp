// Tests for the human output's escaping: controls, C1, bidi overrides and broken UTF-8 become
// visible; text, UTF-8 and (in layout mode) line feeds and colours stay.
#include "report/terminal_text.hpp"

#include <doctest/doctest.h>

#include <string>

namespace rdmi::text {
namespace {

TEST_CASE("terminal_safe escapes C0 controls and DEL inside a value") {
    CHECK(terminal_safe("mlx5_\nPASS  rdmi-dpa-device  all good") ==
          "mlx5_\\nPASS  rdmi-dpa-device  all good");
    CHECK(terminal_safe("3.3\x1b]0;TITLE\x07\x1b[2J") == "3.3\\x1b]0;TITLE\\x07\\x1b[2J");
    CHECK(terminal_safe("a\tb\rc") == "a\\tb\\rc");
    CHECK(terminal_safe(std::string("nul\0x", 5)) == "nul\\x00x");
    CHECK(terminal_safe("del\x7f") == "del\\x7f");
}

TEST_CASE("terminal_safe escapes C1 controls, bidi overrides and invalid UTF-8") {
    CHECK(terminal_safe("csi\xc2\x9b"
                        "2J") == "csi\\u009b2J");
    CHECK(terminal_safe("nel\xc2\x85") == "nel\\u0085");
    CHECK(terminal_safe("abc\xe2\x80\xae"
                        "fed") == "abc\\u202efed");
    CHECK(terminal_safe("\xff\xfe") == "\\xff\\xfe");
    CHECK(terminal_safe("\xc0\xaf") == "\\xc0\\xaf");                    // overlong '/'
    CHECK(terminal_safe("\xed\xa0\x80") == "\\xed\\xa0\\x80");           // surrogate
    CHECK(terminal_safe("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
    CHECK(terminal_safe("cut\xe2\x82") == "cut\\xe2\\x82");              // truncated sequence
}

TEST_CASE("terminal_safe keeps printable ASCII and valid UTF-8") {
    CHECK(terminal_safe("/opt/mellanox/doca 3.3.0105") == "/opt/mellanox/doca 3.3.0105");
    CHECK(terminal_safe("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    CHECK(terminal_safe("").empty());
}

TEST_CASE("terminal_safe in layout mode keeps lines, tabs and SGR colours only") {
    CHECK(terminal_safe("\x1b[32mPASS\x1b[0m  x\n\ty\n", Keep::layout) ==
          "\x1b[32mPASS\x1b[0m  x\n\ty\n");
    CHECK(terminal_safe("\x1b[1;31mFAIL\x1b[0m", Keep::layout) == "\x1b[1;31mFAIL\x1b[0m");
    CHECK(terminal_safe("\x1b[2J\x1b]0;t\x07\r\x1b", Keep::layout) ==
          "\\x1b[2J\\x1b]0;t\\x07\\r\\x1b");
    CHECK(terminal_safe("\xc2\x9b"
                        "31m\xff",
                        Keep::layout) == "\\u009b31m\\xff");
}

}  // namespace
}  // namespace rdmi::text
