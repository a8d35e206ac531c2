// The gate's text, JUnit and GitHub renderings, and their escaping (src/report/gate_formats).
#include "report/gate_formats.hpp"
#include "check/gate_findings.hpp"

#include <doctest/doctest.h>

namespace rdmi::gate {
namespace {

GateReport sample() {
    GateReport gate;
    gate.spec_path = "ci/policy.json";
    gate.checks = {{finding::min_version, Status::pass, "3.3.0105 >= 3.2", "", {}},
                   {finding::dpa, Status::fail, "no DPA on <a & b>", "use a \"BF3\"", {}},
                   {finding::port_active, Status::skip, "50% sure\nline two", "", {}}};
    gate.result = Status::fail;
    return gate;
}

TEST_CASE("text: one line per check, fixes, the verdict") {
    // A line feed inside a message is shown escaped: it must not start a line of its own.
    CHECK(gate_text(sample()) ==
          "PASS  min-version  3.3.0105 >= 3.2\n"
          "FAIL  dpa  no DPA on <a & b>\n"
          "      fix: use a \"BF3\"\n"
          "SKIP  port-active  50% sure\\nline two\n"
          "Result: FAIL (1 failed, 1 skipped, 1 passed)\n");
}

TEST_CASE("text: quiet prints the failures only, with their fix and no verdict") {
    text::TextStyle quiet;
    quiet.verbosity = -1;
    CHECK(gate_text(sample(), quiet) ==
          "FAIL  dpa  no DPA on <a & b>\n"
          "      fix: use a \"BF3\"\n");
    GateReport passing = sample();
    passing.checks.erase(passing.checks.begin() + 1, passing.checks.end());
    passing.result = Status::pass;
    CHECK(gate_text(passing, quiet).empty());
}

TEST_CASE("text: colour paints the labels and the verdict as the report does") {
    text::TextStyle color;
    color.color = true;
    const std::string out = gate_text(sample(), color);
    CHECK(out.find(text::paint(color, Status::fail, "FAIL") + "  dpa  no DPA") !=
          std::string::npos);
    CHECK(out.find(text::paint(color, Status::pass, "PASS") + "  min-version") !=
          std::string::npos);
    CHECK(out.find("Result: \033[1;31mFAIL\033[0m (1 failed") != std::string::npos);
    CHECK(gate_text(sample()).find('\033') == std::string::npos);
}

TEST_CASE("xml_escape") {
    CHECK(xml_escape("<a & 'b' \"c\">") == "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;");
    CHECK(xml_escape(std::string("a\x01"
                                 "b\tc",
                                 5)) ==
          "a\xEF\xBF\xBD"
          "b\tc");
}

TEST_CASE("xml_escape: bytes that are not UTF-8 and non-characters become U+FFFD") {
    // A bridge directory named with such bytes reaches a pcie-link message: one of them would
    // make the whole JUnit file unreadable.
    CHECK(xml_escape("port \xff\xfe:\xc3(") == "port \xEF\xBF\xBD\xEF\xBF\xBD:\xEF\xBF\xBD(");
    CHECK(xml_escape("\xef\xbf\xbe\xef\xbf\xbf") == "\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(xml_escape("\xed\xa0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    // Valid text, non-ASCII included, is kept.
    CHECK(xml_escape("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST_CASE("junit: failure and skipped elements, escaped") {
    const auto xml = gate_junit(sample());
    CHECK(xml.find("<testsuites name=\"rdmi-probe check\" tests=\"3\" failures=\"1\" errors=\"0\" "
                   "skipped=\"1\">") != std::string::npos);
    CHECK(xml.find("<failure type=\"fail\" message=\"no DPA on &lt;a &amp; b&gt;\">no DPA on "
                   "&lt;a &amp; b&gt;\nfix: use a &quot;BF3&quot;</failure>") != std::string::npos);
    CHECK(xml.find("<skipped message=\"50% sure&#10;line two\"/>") != std::string::npos);
}

TEST_CASE("github: escaped annotations") {
    CHECK(github_escape_data("50%\r\nx:y,z") == "50%25%0D%0Ax:y,z");
    CHECK(github_escape_property("a:b,c%") == "a%3Ab%2Cc%25");
    // A runner's log is read on terminals: no control but the escaped line breaks gets through.
    CHECK(github_escape_data("port \x1b[2J\x1b]0;t\x07\n\xff 100%") ==
          "port \\x1b[2J\\x1b]0;t\\x07%0A\\xff 100%25");
    CHECK(github_escape_property("\x1b:") == "\\x1b%3A");
    CHECK(gate_github(sample()) ==
          "pass min-version: 3.3.0105 >= 3.2\n"
          "::error title=rdmi-probe check%3A dpa::no DPA on <a & b>%0Afix: use a \"BF3\"\n"
          "::warning title=rdmi-probe check%3A port-active::50%25 sure%0Aline two\n"
          "rdmi-probe check: fail (1 failed, 1 skipped, 1 passed)\n");
}

}  // namespace
}  // namespace rdmi::gate
