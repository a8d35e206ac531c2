// Tests for exact numbers: one spelling per number, and the saved-document reader keeping the
// numbers a double would round.
#include "json/exact_number.hpp"

#include <doctest/doctest.h>

#include "json/json_input.hpp"

namespace rdmi {
namespace {

using Ordered = nlohmann::ordered_json;

Ordered saved(std::string_view text) {
    auto parsed = parse_json_input<Ordered>(text, "in.json", json_input::kSavedDocument);
    REQUIRE(parsed);
    return std::move(parsed).value();
}

TEST_CASE("canonical_number spells one number one way") {
    CHECK(canonical_number("0") == "0");
    CHECK(canonical_number("-0.0e5") == "0");
    CHECK(canonical_number("1") == "1e0");
    CHECK(canonical_number("1.0") == "1e0");
    CHECK(canonical_number("1.20") == "12e-1");
    CHECK(canonical_number("100000000000000000000") == "1e20");
    CHECK(canonical_number("1E+20") == "1e20");
    CHECK(canonical_number("-15e-1") == "-15e-1");
    CHECK(canonical_number("18446744073709551617") == "18446744073709551617e0");
    CHECK(canonical_number("1e-000000000000000000000400") == "1e-400");
    // Not JSON numbers, or an exponent too long to hold.
    for (const char* bad : {"", "-", "01", "1.", ".5", "1e", "+1", "1e+", "0x10", "1 ", "nan",
                            "1e1234567890123456789"}) {
        CAPTURE(bad);
        CHECK_FALSE(canonical_number(bad));
    }
}

TEST_CASE("double_holds says whether a double kept the number its text spells") {
    CHECK(double_holds("0.1", 0.1));
    CHECK(double_holds("18446744073709551616", 18446744073709551616.0));  // 2^64 exactly
    CHECK(double_holds("1.5e300", 1.5e300));
    CHECK_FALSE(double_holds("18446744073709551617", 18446744073709551616.0));
    CHECK_FALSE(double_holds("0.10000000000000000001", 0.1));
    CHECK_FALSE(double_holds("9007199254740993.0", 9007199254740992.0));
    CHECK_FALSE(double_holds("1e-400", 0.0));
}

TEST_CASE("the saved-document reader keeps the numbers a double would round, and only them") {
    const Ordered doc = saved(
        R"({"big": 18446744073709551617, "tiny": 1e-400, "long": 0.10000000000000000001,
            "u64": 18446744073709551615, "i64": -9223372036854775808, "pow": 18446744073709551616,
            "plain": 0.25})");
    CHECK(exact_number_text(doc["big"]) == "18446744073709551617");
    CHECK(exact_number_text(doc["tiny"]) == "1e-400");
    CHECK(exact_number_text(doc["long"]) == "0.10000000000000000001");
    CHECK(doc["u64"].is_number_unsigned());
    CHECK(doc["i64"].is_number_integer());
    CHECK(doc["pow"].is_number_float());
    CHECK(doc["plain"].is_number_float());
    // Other inputs round as before.
    auto policy =
        parse_json_input<Ordered>(R"({"n": 18446744073709551617})", "p.json", json_input::kPolicy);
    REQUIRE(policy);
    CHECK((*policy)["n"].is_number_float());
}

TEST_CASE("canonical_number_of compares every kind of number by value") {
    const Ordered doc = saved(R"([1, 1.0, 18446744073709551616, 18446744073709551617, -1])");
    CHECK(canonical_number_of(doc[0]) == canonical_number_of(doc[1]));
    CHECK(canonical_number_of(doc[2]) != canonical_number_of(doc[3]));
    CHECK(canonical_number_of(doc[4]) == "-1e0");
    CHECK_FALSE(canonical_number_of(Ordered("1")));
    // A writer that takes only JSON's own types gets the nearest double.
    const Ordered plain = with_plain_numbers(doc);
    CHECK(plain[3].is_number_float());
    CHECK(plain[3].get<double>() == 18446744073709551616.0);
}

TEST_CASE("a kept number whose exponent is too long to compare is refused, naming where") {
    auto parsed = parse_json_input<Ordered>(R"({"a": [1e-1234567890123456789]})", "in.json",
                                            json_input::kSavedDocument);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.gap().message.find("in.json: /a/0: number") == 0);
}

}  // namespace
}  // namespace rdmi
