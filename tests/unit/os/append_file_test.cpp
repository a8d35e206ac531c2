// Tests for AppendFile's rule on what it opens (the rest:
// tests/unit/probes/loopback_trace_test.cpp).
#include "os/append_file.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

constexpr uid_t kAppendForeignUid = 65534;

std::string appended_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

TEST_CASE("AppendFile never truncates another user's file that has several hard links") {
    if (::geteuid() != 0) {
        MESSAGE("needs root: only root can give a file to another user");
        return;
    }
    test::TempTree tree;
    tree.write("/theirs", "kept\n", 0666);
    REQUIRE(::chown(tree.host("/theirs").c_str(), kAppendForeignUid, kAppendForeignUid) == 0);
    REQUIRE(::link(tree.host("/theirs").c_str(), tree.host("/trace").c_str()) == 0);
    for (bool truncate : {true, false}) {
        auto file = AppendFile::open(tree.host("/trace"), truncate);
        REQUIRE_FALSE(file.ok());
        CHECK(file.gap().message == tree.host("/trace") +
                                        ": a file with 2 hard links owned by nobody (uid 65534) "
                                        "(never written in place); not written");
    }
    CHECK(appended_text(tree.host("/theirs")) == "kept\n");
}

TEST_CASE("AppendFile still appends to a file of its own with several hard links") {
    test::TempTree tree;
    tree.write("/mine", "", 0644);
    REQUIRE(::link(tree.host("/mine").c_str(), tree.host("/trace").c_str()) == 0);
    auto file = AppendFile::open(tree.host("/trace"), true);
    REQUIRE(file.ok());
    CHECK(file->write_line("one"));
    CHECK(appended_text(tree.host("/mine")) == "one\n");
}

}  // namespace rdmi
