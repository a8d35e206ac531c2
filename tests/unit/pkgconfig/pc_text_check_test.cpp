// Tests for check_pc_text: NUL bytes, overlong lines, variable cycles and forward references.
#include "pkgconfig/pc_text_check.hpp"

#include <doctest/doctest.h>

#include <string>

namespace rdmi::pkgconfig {

TEST_CASE("check_pc_text accepts an ordinary file without warnings") {
    const auto check = check_pc_text(
        "prefix=/usr\nlibdir=${prefix}/lib # comment ${nothing}\nName: x\nVersion: 1\n"
        "Libs: -L${libdir} -L${pcfiledir} -I${pc_sysrootdir}\nprefix=${prefix}/local\n");
    CHECK_FALSE(check.fatal);
    CHECK(check.warnings.empty());
}

TEST_CASE("check_pc_text rejects NUL bytes and overlong lines") {
    const std::string nul("Name: a\0b\n", 10);
    CHECK(check_pc_text(nul).fatal.value() == "contains a NUL byte at offset 7, not a text file");
    const std::string long_line = "Name: x\nx=" + std::string(kMaxPcLineBytes, 'a') + "\n";
    const auto check = check_pc_text(long_line);
    REQUIRE(check.fatal);
    CHECK(check.fatal->find("line 2 is 65002 bytes long") == 0);
    CHECK_FALSE(check_pc_text("x=" + std::string(kMaxPcLineBytes - 2, 'a')).fatal);
}

TEST_CASE("check_pc_text reports variable cycles") {
    auto two = check_pc_text("a=${b}\nb=${a}\nName: x\n");
    REQUIRE(two.fatal);
    CHECK(*two.fatal == "line 1: variable 'a' refers to itself through a -> b -> a");
    auto self = check_pc_text("c=${c}\n");
    REQUIRE(self.fatal);
    CHECK(*self.fatal == "line 1: variable 'c' refers to itself through c -> c");
    auto three = check_pc_text("a=x${b}\nb=${c}/y\nc=${a}\n");
    REQUIRE(three.fatal);
    CHECK(three.fatal->find("a -> b -> c -> a") != std::string::npos);
    // Redefining a variable in terms of its earlier value is fine for libpkgconf.
    CHECK_FALSE(check_pc_text("p=/usr\np=${p}/local\n").fatal);
    // A continued line is one logical line.
    auto continued = check_pc_text("a=${\\\nb}\nb=${a}\n");
    CHECK(continued.fatal);
}

TEST_CASE("check_pc_text warns about undefined and forward references") {
    auto check = check_pc_text("Libs: -L${libdir}\nlibdir=/usr/lib\nCflags: -I${inc}\n");
    CHECK_FALSE(check.fatal);
    REQUIRE(check.warnings.size() == 2);
    CHECK(check.warnings[0] ==
          "line 1: variable 'libdir' is used before its definition on line 2 (expands to \"\")");
    CHECK(check.warnings[1] == "line 3: variable 'inc' is not defined (expands to \"\")");
    // "$$" is a literal dollar, not a reference.
    CHECK(check_pc_text("x=$${y}\n").warnings.empty());
}

}  // namespace rdmi::pkgconfig
