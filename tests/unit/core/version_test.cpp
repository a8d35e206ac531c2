// Tests for DOCA version parsing and comparison.
#include "core/version.hpp"

#include <doctest/doctest.h>

namespace rdmi {

TEST_CASE("DOCA's zero-padded third field is patch*1000+build") {
    auto v = parse_doca_version("3.2.1025");
    REQUIRE(v);
    CHECK(v->major == 3);
    CHECK(v->minor == 2);
    CHECK(v->patch == 1);
    CHECK(v->build == 25U);
    CHECK(v->to_string() == "3.2.1025");
    CHECK(v->release() == "3.2.1");
    CHECK(parse_doca_version("3.0.0058")->to_string() == "3.0.0058");
    CHECK(parse_doca_version("2.10.0087")->build == 87U);
}

TEST_CASE("a short third field is a plain patch level") {
    auto v = parse_doca_version(" 3.3.0\n");
    REQUIRE(v);
    CHECK_FALSE(v->build.has_value());
    CHECK(v->to_string() == "3.3.0");
}

TEST_CASE("malformed versions are rejected") {
    for (const char* bad :
         {"", "3", "3.3", "3.3.", "a.b.c", "3.3.0-rc1", "3..0", "99999999.1.1", "3.3.0.1"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_doca_version(bad).has_value());
    }
}

TEST_CASE("same_doca_version treats an unknown build as agreeing") {
    auto full = *parse_doca_version("3.3.0105");
    CHECK(same_doca_version(full, *parse_doca_version("3.3.0")));
    CHECK(same_doca_version(full, *parse_doca_version("3.3.0105")));
    CHECK_FALSE(same_doca_version(full, *parse_doca_version("3.3.0106")));
    CHECK_FALSE(same_doca_version(full, *parse_doca_version("3.2.1025")));
}

TEST_CASE("versions order by release then build") {
    CHECK(compare_doca_versions(*parse_doca_version("3.2.1025"), *parse_doca_version("3.3.0")) < 0);
    CHECK(compare_doca_versions(*parse_doca_version("2.10.0087"), *parse_doca_version("2.9.0")) >
          0);
    CHECK(compare_doca_versions(*parse_doca_version("3.3.0105"), *parse_doca_version("3.3.0105")) ==
          0);
}

TEST_CASE("find_doca_version picks a version out of free text") {
    CHECK(find_doca_version("doca_caps version 3.3.0105\n")->to_string() == "3.3.0105");
    CHECK(find_doca_version("bf-bundle-2.9.1-40_24.11_ubuntu-22.04_prod")->to_string() == "2.9.1");
    CHECK(find_doca_version("DOCA_2.2.1_BSP_4.2.2_Ubuntu_22.04-13.23-09.prod")->to_string() ==
          "2.2.1");
    CHECK_FALSE(find_doca_version("no version here 1.2").has_value());
}

}  // namespace rdmi
