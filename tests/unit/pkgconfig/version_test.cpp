// Tests for compare_versions/satisfies, including DOCA's zero-padded versions.
#include "pkgconfig/version.hpp"

#include <doctest/doctest.h>

namespace rdmi::pkgconfig {

TEST_CASE("compare_versions orders DOCA versions numerically per segment") {
    CHECK(compare_versions("3.0.0058", "3.0.58") == 0);  // zero padding is not a difference
    CHECK(compare_versions("3.3.0", "3.3.0") == 0);
    CHECK(compare_versions("2.10.0087", "3.0.0058") == -1);
    CHECK(compare_versions("3.0.0058", "2.10.0087") == 1);
    CHECK(compare_versions("2.10.0087", "2.9.0") == 1);  // 10 > 9, not a string comparison
    CHECK(compare_versions("3.2.1025", "3.3.0") == -1);
    CHECK(compare_versions("3.3.0", "3.2.1025") == 1);
    CHECK(compare_versions("3.0.0058", "3.2.1025") == -1);
    CHECK(compare_versions("3.3", "3.3.0") == -1);  // RPM rule: the longer one is newer
    CHECK(compare_versions("", "1.0") == -1);
}

TEST_CASE("satisfies applies every pkg-config operator") {
    CHECK(satisfies("3.3.0", "", ""));
    CHECK(satisfies("3.3.0", ">=", "3.3.0"));
    CHECK(satisfies("3.3.0", ">=", "3.2.1025"));
    CHECK_FALSE(satisfies("3.2.1025", ">=", "3.3.0"));
    CHECK(satisfies("3.0.0058", "=", "3.0.58"));
    CHECK_FALSE(satisfies("3.0.0058", "=", "3.3.0"));
    CHECK(satisfies("3.0.0058", "!=", "3.3.0"));
    CHECK_FALSE(satisfies("3.3.0", "!=", "3.3.0"));
    CHECK(satisfies("2.10.0087", "<", "3.0.0058"));
    CHECK_FALSE(satisfies("3.0.0058", "<", "3.0.0058"));
    CHECK(satisfies("3.0.0058", "<=", "3.0.0058"));
    CHECK(satisfies("3.3.0", ">", "3.2.1025"));
    CHECK_FALSE(satisfies("3.3.0", ">", "3.3.0"));
    CHECK_FALSE(satisfies("3.3.0", "=>", "3.3.0"));  // unknown operator never holds
}

}  // namespace rdmi::pkgconfig
