// "Did you mean": typos of a subcommand find it; other words find nothing.
#include "text/closest_name.hpp"

#include <array>

#include <doctest/doctest.h>

namespace rdmi::text {

namespace {
constexpr std::array<std::string_view, 6> kNames{"report", "env",   "caps",
                                                 "state",  "check", "schema"};
}

TEST_CASE("edit_distance counts a swap of neighbours as one edit") {
    CHECK(edit_distance("report", "report") == 0);
    CHECK(edit_distance("repot", "report") == 1);
    CHECK(edit_distance("chcek", "check") == 1);
    CHECK(edit_distance("", "env") == 3);
    CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("closest_name finds the subcommand a typo meant") {
    CHECK(closest_name("repot", kNames) == std::optional<std::string_view>("report"));
    CHECK(closest_name("chek", kNames) == std::optional<std::string_view>("check"));
    CHECK(closest_name("sate", kNames) == std::optional<std::string_view>("state"));
    CHECK(closest_name("shcema", kNames) == std::optional<std::string_view>("schema"));
}

TEST_CASE("closest_name says nothing when no name is near, on a tie, or for an exact name") {
    CHECK_FALSE(closest_name("frobnicate", kNames));
    CHECK_FALSE(closest_name("xyz", kNames));
    CHECK_FALSE(closest_name("report", kNames));
    // Two names one edit away: a guess between them would mislead.
    const std::array<std::string_view, 2> twins{"abcd", "abce"};
    CHECK_FALSE(closest_name("abcf", twins));
}

}  // namespace rdmi::text
