// Tests for AppendFile: what it refuses to open (a link, a directory, a FIFO, another user's
// file) and how it appends.
#include "os/append_file.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
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

TEST_CASE("AppendFile never writes its own file through a hard link in an open directory") {
    // A name in a sticky, world-writable directory (/tmp) that shares a file of ours: with
    // fs.protected_hardlinks off, any user can link root's /etc/shadow there as the trace.
    test::TempTree tree;
    tree.write("/secret", "kept\n", 0600);
    tree.mkdir("/public");
    REQUIRE(::chmod(tree.host("/public").c_str(), 01777) == 0);
    REQUIRE(::link(tree.host("/secret").c_str(), tree.host("/public/trace").c_str()) == 0);
    for (bool truncate : {true, false}) {
        auto file = AppendFile::open(tree.host("/public/trace"), truncate);
        REQUIRE_FALSE(file.ok());
        CHECK(file.gap().message == tree.host("/public/trace") +
                                        ": a file with 2 hard links in a directory others may "
                                        "create names in (never written in place); not written");
    }
    CHECK(appended_text(tree.host("/secret")) == "kept\n");
}

TEST_CASE("AppendFile never follows another user's link among its directories") {
    if (::geteuid() != 0) {
        MESSAGE("needs root: only root can give a link to another user");
        return;
    }
    test::TempTree tree;
    tree.mkdir("/private", 0700);
    REQUIRE(::symlink(tree.host("/private").c_str(), tree.host("/theirs").c_str()) == 0);
    REQUIRE(::lchown(tree.host("/theirs").c_str(), kAppendForeignUid, kAppendForeignUid) == 0);
    auto file = AppendFile::open(tree.host("/theirs/trace"), true);
    REQUIRE_FALSE(file.ok());
    CHECK(file.gap().message == tree.host("/theirs") +
                                    ": a symbolic link owned by nobody (uid 65534), not by root "
                                    "(not followed); not written");
    CHECK(::access(tree.host("/private/trace").c_str(), F_OK) != 0);
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

TEST_CASE("AppendFile refuses a symlink, a directory and a FIFO, and appends whole lines") {
    test::TempTree tree;
    tree.write("/target", "");
    tree.symlink(tree.host("/target"), "/link");
    tree.mkdir("/dir");
    tree.fifo("/fifo");
    CHECK_FALSE(AppendFile::open(tree.host("/link"), true).ok());
    CHECK_FALSE(AppendFile::open(tree.host("/dir"), true).ok());
    CHECK_FALSE(AppendFile::open(tree.host("/fifo"), true).ok());
    CHECK_FALSE(AppendFile::open(tree.host("/missing/x"), true).ok());
    tree.write("/log", "old\n");
    {
        auto file = AppendFile::open(tree.host("/log"), true);
        REQUIRE(file.ok());
        CHECK(file->write_line("one"));
    }
    {
        auto file = AppendFile::open(tree.host("/log"), false);
        REQUIRE(file.ok());
        CHECK(file->write_line("two"));
    }
    std::ifstream in(tree.host("/log"));
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str() == "one\ntwo\n");
}

}  // namespace rdmi
