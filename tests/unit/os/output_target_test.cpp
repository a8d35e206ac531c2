// Tests for resolve_output_target: which links a write follows, and where it then lands.
#include "os/output_target.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

constexpr uid_t kLinkForeignUid = 65534;

// The file `name` in the held directory: what a write relative to the target would reach.
bool names_file(const OutputTarget& target, const std::string& host_path) {
    struct stat there {};
    struct stat want {};
    return ::fstatat(target.dir_fd(), target.name().c_str(), &there, AT_SYMLINK_NOFOLLOW) == 0 &&
           ::lstat(host_path.c_str(), &want) == 0 && there.st_dev == want.st_dev &&
           there.st_ino == want.st_ino;
}

}  // namespace

TEST_CASE("a missing output name is held as a name in its directory") {
    test::TempTree tree;
    auto target = resolve_output_target(tree.host("/new.json"));
    REQUIRE(target.ok());
    CHECK_FALSE(target->exists());
    CHECK(target->name() == "new.json");
    CHECK(target->shown() == tree.host("/new.json"));
}

TEST_CASE("a link of our own to a regular file resolves to the file, in its own directory") {
    test::TempTree tree;
    tree.write("/real/report.json", "old", 0640);
    tree.mkdir("/links");
    tree.symlink("../real/report.json", "/links/out.json");
    auto target = resolve_output_target(tree.host("/links/out.json"));
    REQUIRE(target.ok());
    CHECK(target->exists());
    CHECK_FALSE(target->through_link());
    CHECK(target->name() == "report.json");
    CHECK(target->shown() == tree.host("/links/../real/report.json"));
    CHECK(S_ISREG(target->st().st_mode));
    CHECK(names_file(*target, tree.host("/real/report.json")));
}

TEST_CASE("a link of our own to a FIFO resolves to the FIFO, in its own directory") {
    test::TempTree tree;
    tree.fifo("/fifo");
    tree.symlink("fifo", "/out");
    auto target = resolve_output_target(tree.host("/out"));
    REQUIRE(target.ok());
    CHECK_FALSE(target->through_link());
    CHECK(target->name() == "fifo");
    CHECK(S_ISFIFO(target->st().st_mode));
}

TEST_CASE("a magic link of /proc to a pipe is kept as the link, with what it leads to") {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    const std::string path = "/proc/self/fd/" + std::to_string(ends[1]);
    {
        auto target = resolve_output_target(path);
        REQUIRE(target.ok());
        CHECK(target->through_link());
        CHECK(target->name() == std::to_string(ends[1]));
        CHECK(S_ISFIFO(target->st().st_mode));
    }
    ::close(ends[0]);
    ::close(ends[1]);
}

TEST_CASE("a link to nothing and a loop of links are refused") {
    test::TempTree tree;
    tree.symlink("nowhere", "/dangling");
    auto dangling = resolve_output_target(tree.host("/dangling"));
    REQUIRE_FALSE(dangling.ok());
    CHECK(dangling.gap().message ==
          tree.host("/dangling") +
              ": a symbolic link to a missing file (not followed); not written");
    tree.symlink("b", "/a");
    tree.symlink("a", "/b");
    CHECK_FALSE(resolve_output_target(tree.host("/a")).ok());
}

TEST_CASE("another user's link to a regular file is not followed, even behind a trusted link") {
    if (::geteuid() != 0) {
        MESSAGE("needs root: only root can give a link to another user");
        return;
    }
    test::TempTree tree;
    tree.write("/secret", "root only", 0600);
    tree.symlink(tree.host("/secret"), "/theirs");
    REQUIRE(::lchown(tree.host("/theirs").c_str(), kLinkForeignUid, kLinkForeignUid) == 0);
    tree.symlink("theirs", "/mine");
    for (const char* path : {"/theirs", "/mine"}) {
        auto target = resolve_output_target(tree.host(path));
        REQUIRE_FALSE(target.ok());
        CHECK(target.gap().message == tree.host("/theirs") +
                                          ": a symbolic link owned by nobody (uid 65534), not by "
                                          "root (not followed); not written");
    }
    // Nor to a FIFO (or a device such as /dev/mem): opening one for writing is already a deed.
    tree.fifo("/fifo");
    tree.symlink("fifo", "/their-fifo");
    REQUIRE(::lchown(tree.host("/their-fifo").c_str(), kLinkForeignUid, kLinkForeignUid) == 0);
    auto fifo = resolve_output_target(tree.host("/their-fifo"));
    REQUIRE_FALSE(fifo.ok());
    CHECK(fifo.gap().message == tree.host("/their-fifo") +
                                    ": a symbolic link owned by nobody (uid 65534), not by root "
                                    "(not followed); not written");
}

TEST_CASE("another user's link among the directories is not followed") {
    if (::geteuid() != 0) {
        MESSAGE("needs root: only root can give a link to another user");
        return;
    }
    test::TempTree tree;
    tree.mkdir("/private", 0700);
    tree.symlink(tree.host("/private"), "/theirs");
    REQUIRE(::lchown(tree.host("/theirs").c_str(), kLinkForeignUid, kLinkForeignUid) == 0);
    auto target = resolve_output_target(tree.host("/theirs/out.json"));
    REQUIRE_FALSE(target.ok());
    CHECK(target.gap().message == tree.host("/theirs") +
                                      ": a symbolic link owned by nobody (uid 65534), not by "
                                      "root (not followed); not written");
    // Our own link there is followed, and `..` after it is taken from where it led.
    tree.symlink("private", "/mine");
    auto mine = resolve_output_target(tree.host("/mine/../private/out.json"));
    REQUIRE(mine.ok());
    CHECK_FALSE(mine->exists());
    CHECK(mine->name() == "out.json");
}

}  // namespace rdmi
