// fit_to_width: over-long lines break at spaces under a hanging indent; lines that fit, their
// columns and colour sequences are untouched; only a word with no room may pass the width.
#include "text/fit_width.hpp"

#include <doctest/doctest.h>

#include <string>

#include "text/text.hpp"

namespace rdmi::text {
namespace {

std::size_t widest(std::string_view text) {
    std::size_t most = 0;
    for (const auto line : split_lines(text)) most = std::max(most, display_columns(line));
    return most;
}

TEST_CASE("display_columns: colour sequences take no column, a UTF-8 character one") {
    CHECK(display_columns("FAIL") == 4);
    CHECK(display_columns("\033[1;31mFAIL\033[0m") == 4);
    CHECK(display_columns("caf\xc3\xa9") == 4);
    // An escaped control as the output shows it: four visible characters.
    CHECK(display_columns("\\x1b") == 4);
}

TEST_CASE("fit_to_width: lines that fit stay as they are, inner columns included") {
    const std::string text = "  0000:03:00.0  PF    mlx5_0\n\n  x      y\n";
    CHECK(fit_to_width(text, 40) == text);
}

TEST_CASE("fit_to_width: a long line hangs four columns deeper than itself") {
    const std::string line = "  one two three four five six seven eight nine ten eleven twelve";
    const std::string fitted = fit_to_width(line, 30);
    CHECK(fitted ==
          "  one two three four five six\n"
          "      seven eight nine ten\n"
          "      eleven twelve");
    CHECK(widest(fitted) <= 30);
}

TEST_CASE("fit_to_width: a label's value continues under the value") {
    const std::string fitted = fit_to_width(
        "      fix: install the DOCA SDK and its RDMI packages from the repository", 40);
    CHECK(fitted ==
          "      fix: install the DOCA SDK and its\n"
          "           RDMI packages from the\n"
          "           repository");
    CHECK(fit_to_width("  1. add the prefix to PKG_CONFIG_PATH before building anything", 36) ==
          "  1. add the prefix to\n"
          "     PKG_CONFIG_PATH before building\n"
          "     anything");
}

TEST_CASE("fit_to_width: a shell-quoted word is never broken at its spaces") {
    const std::string command =
        "  replay: rdmi-probe --root '/tmp/a dir with '\\''quotes'\\'' x/b; x.tar.gz'";
    const std::string fitted = fit_to_width(command, 60);
    CHECK(fitted ==
          "  replay: rdmi-probe --root\n"
          "          '/tmp/a dir with '\\''quotes'\\'' x/b; x.tar.gz'");
    CHECK(fit_to_width("  1. export NAME='/opt/a b/c d/e f/g h/i j/k l/m n/o p' now", 40) ==
          "  1. export NAME='/opt/a b/c d/e f/g h/i j/k l/m n/o p'\n     now");
    // An apostrophe in prose opens no quote; a quote that never closes is plain words.
    CHECK(fit_to_width("  the slot's lanes and the BIOS bifurcation settings", 30) ==
          "  the slot's lanes and the\n      BIOS bifurcation\n      settings");
    CHECK(fit_to_width("  'unclosed quote runs on and on and on", 24) ==
          "  'unclosed quote runs\n    on and on and on");
}

TEST_CASE("fit_to_width: a row's continuation hangs under its second column") {
    CHECK(fit_to_width("FAIL  max-version  the RDMI stack is 3.2.1025, which is newer", 40) ==
          "FAIL  max-version  the RDMI stack is\n"
          "      3.2.1025, which is newer");
}

TEST_CASE("fit_to_width: a word no line could hold stays after the word before it") {
    const std::string path = "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/doca-rdmi.pc";
    CHECK(fit_to_width("  missing: " + path + " and more", 40) ==
          "  missing: " + path + "\n           and more");
    // Pasted, a break after "export" would set the variable without exporting it.
    const std::string action = "  1. export PKG_CONFIG_PATH=" + path + ":$PKG_CONFIG_PATH";
    CHECK(fit_to_width(action, 80) == action);
    // A word a continuation can hold moves to one.
    CHECK(fit_to_width("PASS  library-doca-common  " + path, 70) ==
          "PASS  library-doca-common\n      " + path);
}

TEST_CASE("fit_to_width: colour does not count toward the width") {
    const std::string line = "\033[1;31mFAIL\033[0m  id  a message of exactly enough words";
    CHECK(display_columns(line) == 43);
    CHECK(fit_to_width(line, 43) == line);
    CHECK(fit_to_width(line, 42).find('\n') != std::string::npos);
}

TEST_CASE("fit_to_width: a hang deeper than half the width falls back to four columns") {
    const std::string fitted =
        fit_to_width("                         deep: alpha beta gamma delta epsilon", 50);
    CHECK(fitted ==
          "                         deep: alpha beta gamma\n"
          "                             delta epsilon");
}

}  // namespace
}  // namespace rdmi::text
