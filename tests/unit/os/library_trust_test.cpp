// Tests for the trusted-library rule.
#include "os/library_trust.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "support/temp_tree.hpp"

namespace rdmi {

TEST_CASE("a library in a private directory is trusted") {
    test::TempTree tree;
    tree.mkdir("/lib", 0755);
    tree.write("/lib/libdoca_common.so.3", "x", 0644);
    ::chmod(tree.root().c_str(), 0755);
    CHECK_FALSE(check_library_trust(tree.host("/lib/libdoca_common.so.3")).has_value());
}

TEST_CASE("a group-writable directory makes a library untrusted") {
    test::TempTree tree;
    tree.mkdir("/lib", 0775);
    tree.write("/lib/libdoca_common.so.3", "x", 0644);
    auto verdict = check_library_trust(tree.host("/lib/libdoca_common.so.3"));
    REQUIRE(verdict.has_value());
    CHECK(verdict->reason == GapReason::untrusted);
    CHECK(verdict->message == tree.host("/lib") +
                                  ": writable by its group (mode 0775; fix: chmod go-w " +
                                  tree.host("/lib") + ")");
}

TEST_CASE("a world-writable library file is untrusted") {
    test::TempTree tree;
    tree.write("/libx.so", "x", 0666);
    auto verdict = check_library_trust(tree.host("/libx.so"));
    REQUIRE(verdict.has_value());
    CHECK(verdict->message.find("writable by others") != std::string::npos);
}

TEST_CASE("writable by others alone is enough to be untrusted, for a file and a directory") {
    // o+w without g+w: a check that only looked at the group bit would accept both.
    test::TempTree tree;
    tree.mkdir("/lib", 0755);
    tree.write("/lib/libx.so", "x", 0646);
    auto file = check_library_trust(tree.host("/lib/libx.so"));
    REQUIRE(file.has_value());
    CHECK(file->reason == GapReason::untrusted);
    CHECK(file->message == tree.host("/lib/libx.so") +
                               ": writable by others (mode 0646; fix: chmod go-w " +
                               tree.host("/lib/libx.so") + ")");

    tree.chmod("/lib/libx.so", 0644);
    tree.chmod("/lib", 0757);
    auto dir = check_library_trust(tree.host("/lib/libx.so"));
    REQUIRE(dir.has_value());
    CHECK(dir->message == tree.host("/lib") + ": writable by others (mode 0757; fix: chmod go-w " +
                              tree.host("/lib") + ")");

    tree.chmod("/lib", 0755);  // and the same tree without the bit is trusted
    CHECK_FALSE(check_library_trust(tree.host("/lib/libx.so")).has_value());
}

TEST_CASE("a sticky world-writable directory is accepted for an entry the user owns") {
    test::TempTree tree;
    tree.mkdir("/tmpdir", 01777);
    tree.mkdir("/tmpdir/mine", 0755);
    tree.write("/tmpdir/mine/libx.so", "x", 0644);
    CHECK_FALSE(check_library_trust(tree.host("/tmpdir/mine/libx.so")).has_value());
    tree.chmod("/tmpdir", 0777);  // the same without the sticky bit is not
    CHECK(check_library_trust(tree.host("/tmpdir/mine/libx.so")).has_value());
}

TEST_CASE("a link into an untrusted directory is judged by its target") {
    test::TempTree tree;
    tree.mkdir("/bad", 0777);
    tree.write("/bad/libx.so.1", "x", 0644);
    tree.mkdir("/good", 0755);
    tree.symlink("../bad/libx.so.1", "/good/libx.so");
    auto verdict = check_library_trust(tree.host("/good/libx.so"));
    REQUIRE(verdict.has_value());
    CHECK(verdict->message.find("/bad") != std::string::npos);
}

TEST_CASE("missing and relative paths are untrusted") {
    CHECK(check_library_trust("/nonexistent/libx.so")->reason == GapReason::untrusted);
    CHECK(check_library_trust("libx.so")->reason == GapReason::untrusted);
}

TEST_CASE("the system's own libraries are trusted") {
    CHECK_FALSE(check_library_trust("/lib/x86_64-linux-gnu/libc.so.6").has_value());
}

}  // namespace rdmi
