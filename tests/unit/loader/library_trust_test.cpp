// Tests for the trusted-library rule.
#include "loader/library_trust.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

TEST_CASE(
    "a shared cache keeps facts, not verdicts: a parent trusted is still judged as a "
    "search directory") {
    // /tmpdir is sticky and world-writable: fine above a directory the user owns, never as a
    // directory the loader searches. A cache that kept the first verdict would pass both.
    test::TempTree tree;
    tree.mkdir("/tmpdir", 01777);
    tree.mkdir("/tmpdir/mine", 0755);
    tree.write("/tmpdir/mine/libx.so", "x", 0644);
    for (int order = 0; order < 2; ++order) {
        CAPTURE(order);
        TrustCache cache;
        if (order == 0) CHECK_FALSE(check_library_trust(tree.host("/tmpdir/mine/libx.so"), &cache));
        auto searched = check_search_dir_trust(tree.host("/tmpdir"), &cache);
        REQUIRE(searched.has_value());
        CHECK(searched->message.find("writable by others") != std::string::npos);
        CHECK_FALSE(check_library_trust(tree.host("/tmpdir/mine/libx.so"), &cache));
        CHECK_FALSE(check_search_dir_trust(tree.host("/tmpdir/mine"), &cache));
    }
}

TEST_CASE("a shared cache judges each path by its own facts") {
    test::TempTree tree;
    tree.mkdir("/good", 0755);
    tree.mkdir("/bad", 0777);
    tree.write("/good/libx.so", "x", 0644);
    tree.write("/bad/libx.so", "x", 0644);
    tree.symlink("../bad/libx.so", "/good/liby.so");
    TrustCache cache;
    CHECK_FALSE(check_library_trust(tree.host("/good/libx.so"), &cache));
    CHECK(check_library_trust(tree.host("/bad/libx.so"), &cache));
    CHECK(check_library_trust(tree.host("/good/liby.so"), &cache));  // judged by its target
    CHECK(check_search_dir_trust(tree.host("/bad/sub"), &cache));    // missing: its parent
    CHECK_FALSE(check_library_trust(tree.host("/good/libx.so"), &cache));
}

TEST_CASE("facts cached under one uid give another uid its own verdict") {
    // The cache holds owners, not verdicts: a file owned by uid 65534 is untrusted for root and
    // trusted for 65534 itself, from the same cached facts (a forked child inherits them).
    if (::geteuid() != 0) {
        MESSAGE("needs root to own a file as another user; skipped");
        return;
    }
    test::TempTree tree;
    tree.mkdir("/lib", 0755);
    tree.write("/lib/libx.so", "x", 0644);
    ::chmod(tree.root().c_str(), 0755);
    REQUIRE(::chown(tree.host("/lib/libx.so").c_str(), 65534, 65534) == 0);
    TrustCache cache;
    auto as_root = check_library_trust(tree.host("/lib/libx.so"), &cache);
    REQUIRE(as_root.has_value());
    CHECK(as_root->message.find("owned by uid 65534") != std::string::npos);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // Only the cache answers here: the walk above filled it for every directory.
        const bool ok = ::setgid(65534) == 0 && ::setuid(65534) == 0 &&
                        !check_library_trust(tree.host("/lib/libx.so"), &cache).has_value();
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

}  // namespace rdmi
