// Tests for the shared attribute text helpers.
#include "sysfs/attr_text.hpp"

#include <doctest/doctest.h>

#include <cstdlib>

namespace rdmi::sysfs {

TEST_CASE("attr_line trims and rejects empty, multi-line and binary input") {
    CHECK(attr_line("  mlx5_0 \n").value() == "mlx5_0");
    CHECK(attr_line("").gap().message == "empty");
    CHECK(attr_line(" \n\n").gap().message == "empty");
    CHECK(attr_line("a\nb\n").gap().message == "more than one line: \"a\\x0ab\"");
    const auto junk = attr_line(std::string_view("\x7f\xff", 2));
    CHECK(junk.gap().reason == GapReason::malformed);
    CHECK(junk.gap().message == "binary data, not text: \"\\x7f\\xff\"");
    CHECK(attr_line(std::string(4000, 'x')).ok());
}

TEST_CASE("numbers: decimal, signed, hex, with ranges") {
    CHECK(parse_decimal("42", 100).value() == 42U);
    CHECK(parse_decimal("101", 100).gap().message == "out of range (max 100): \"101\"");
    CHECK_FALSE(parse_decimal("-1", 100).ok());
    CHECK_FALSE(parse_decimal("4x", 100).ok());
    CHECK_FALSE(parse_decimal("", 100).ok());
    CHECK_FALSE(parse_decimal("99999999999999999999999", ~0ULL).ok());
    CHECK(parse_signed("-1", -1, 10).value() == -1);
    CHECK_FALSE(parse_signed("-2", -1, 10).ok());
    CHECK(parse_hex("0x15b3", 0xffff).value() == 0x15b3U);
    CHECK(parse_hex("A2DC", 0xffff).value() == 0xa2dcU);
    CHECK_FALSE(parse_hex("0x", 0xffff).ok());
    CHECK_FALSE(parse_hex("0x1ffff", 0xffff).ok());
    CHECK(parse_unsigned("1024\n").value() == 1024U);
    CHECK(parse_unsigned("\n").gap().message == "empty");
    CHECK(parse_first_line("\nDOCA_2.9.1_BSP\nsecond\n").value() == "DOCA_2.9.1_BSP");
}

TEST_CASE("parse_fixed_point: digits with one point, rounded as strtod rounds them") {
    for (const char* text : {"0", "2.5", "14", "53.125", "100", "0.1", "12.34567890123", "5.", ".5",
                             "999999999999999", "0.00000000000001", "2.55", "13.5"}) {
        const std::string shown = text;
        CAPTURE(shown);
        const auto parsed = parse_fixed_point(text);
        REQUIRE(parsed.ok());
        CHECK(parsed.value() == std::strtod(text, nullptr));  // bit for bit, not approximately
    }
    for (const char* text : {"", ".", "-1", "+1", "1e3", "inf", "nan", "0x10", "1.2.3", " 1", "1 ",
                             "1,5", "1234567890123456", "0.000000000000001"}) {
        const std::string shown = text;
        CAPTURE(shown);
        CHECK_FALSE(parse_fixed_point(text).ok());
    }
}

TEST_CASE("quoted shortens and escapes") {
    CHECK(quote_for_message("ab\"c") == "\"ab\\x22c\"");
    CHECK(quote_for_message(std::string(50, 'a')) == "\"" + std::string(40, 'a') + "...\"");
}

}  // namespace rdmi::sysfs
