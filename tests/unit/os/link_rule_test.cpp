// Tests for the owner rule on symbolic links (os/link_rule.hpp): every read of RootedFs, in both
// resolutions and on the live root, refuses a link whose owner is neither root nor its target's.
#include "os/link_rule.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <string>
#include <vector>

#include "os/path_resolver.hpp"
#include "os/recording_fs.hpp"
#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

constexpr uid_t kNobody = 65534;
constexpr std::array kLinkResolutions{RootedFs::Resolution::kernel,
                                      RootedFs::Resolution::userspace};

LinkRule owner_rule() {
    LinkRule rule;
    rule.owner_match = true;
    return rule;
}

// Makes `in_tree` (a link, a file or a directory) belong to nobody, without following it.
void give_to_nobody(const test::TempTree& tree, std::string_view in_tree) {
    REQUIRE(::lchown(tree.host(in_tree).c_str(), kNobody, kNobody) == 0);
}

// A tree as a user who owns a directory the probe reads would make it: nobody's directory
// /home/u holding nobody's links to root's secret, to root's directory, and to nobody's file.
struct PlantedTree {
    test::TempTree tree;
    PlantedTree() {
        tree.write("/vault/secret", "TOPSECRET\n", 0600);
        tree.write("/etc/passwd",
                   "root:x:0:0::/root:/bin/sh\nnobody:x:65534:65534::/:/bin/false\n");
        tree.mkdir("/home/u/own");
        tree.write("/home/u/own/file", "mine\n");
        tree.symlink("/vault/secret", "/home/u/secret-abs");
        tree.symlink("../../vault/secret", "/home/u/secret-rel");
        tree.symlink("../../vault", "/home/u/vault-dir");
        tree.symlink("/", "/home/u/to-root");
        tree.symlink("..", "/home/u/up");
        tree.symlink("own/file", "/home/u/mine");
        // nobody's directory reached through nobody's link (followed), holding nobody's link
        // to root's secret (refused even after the directory was walked once).
        tree.symlink("own", "/home/u/owndir");
        tree.symlink("../../../vault/secret", "/home/u/own/leak");
        // A chain: nobody's link to root's link to the secret.
        tree.symlink("../vault/secret", "/etc/root-link");
        tree.symlink("../../etc/root-link", "/home/u/chain");
        // Root's own link to the secret: root vouches for it. (Relative links, apart from the
        // two above named -abs and to-root, lead to the same file on the live root.)
        tree.symlink("../vault/secret", "/etc/by-root");
        for (const char* path :
             {"/home/u", "/home/u/own", "/home/u/own/file", "/home/u/secret-abs",
              "/home/u/secret-rel", "/home/u/vault-dir", "/home/u/to-root", "/home/u/up",
              "/home/u/mine", "/home/u/chain", "/home/u/owndir", "/home/u/own/leak"})
            give_to_nobody(tree, path);
    }
};

bool needs_root() {
    if (::geteuid() == 0) return false;
    MESSAGE("needs root to own a link as another user; skipped");
    return true;
}

void check_refused(const Result<std::string>& got, std::string_view link) {
    REQUIRE_FALSE(got.ok());
    CHECK(got.gap().reason == GapReason::untrusted);
    CHECK(got.gap().message.find(std::string(link)) != std::string::npos);
    CHECK(got.gap().message.find("owned by uid 65534") != std::string::npos);
}

}  // namespace

TEST_CASE("owner_name and foreign_link name both owners; root's and same-owner links pass") {
    const std::string passwd = "root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/a:/bin/sh\n";
    CHECK(owner_name(0, passwd) == "root");
    CHECK(owner_name(1000, passwd) == "uid 1000 (alice)");
    CHECK(owner_name(1001, passwd) == "uid 1001");
    CHECK(owner_name(1000, "garbage\n:x:1000:\n") == "uid 1000");
    CHECK_FALSE(foreign_link("/p", "/p", 0, 1000, passwd));
    CHECK_FALSE(foreign_link("/p", "/p", 1000, 1000, passwd));
    auto why = foreign_link("/p/lib/x.so", "/p/lib/x.so", 1000, 0, passwd);
    REQUIRE(why);
    CHECK(*why == "symbolic link owned by uid 1000 (alice), target owned by root");
    const Gap gap = foreign_link_gap("/p/lib/x.so", *why);
    CHECK(gap.reason == GapReason::untrusted);
    CHECK(gap.message ==
          "/p/lib/x.so: not followed: symbolic link owned by uid 1000 (alice), target owned by "
          "root (--allow-foreign-links follows it)");
    auto on_the_way = foreign_link("/p/lib/x.so", "/p/lib", 1000, 0, passwd);
    REQUIRE(on_the_way);
    CHECK(*on_the_way == "symbolic link /p/lib owned by uid 1000 (alice), target owned by root");
}

TEST_CASE("the process reading as root is under the owner rule by default") {
    CHECK(LinkRule::for_this_process().owner_match == reads_beyond_its_user());
    if (::geteuid() == 0) CHECK(reads_beyond_its_user());
}

TEST_CASE("below a root, another user's link to root's file is refused by every reader") {
    if (needs_root()) return;
    PlantedTree planted;
    for (auto resolution : kLinkResolutions) {
        CAPTURE(static_cast<int>(resolution));
        auto opened = RootedFs::open(planted.tree.root(), resolution, false, owner_rule());
        REQUIRE(opened.ok());
        const RootedFs& fs = *opened;
        for (const char* link : {"/home/u/secret-abs", "/home/u/secret-rel", "/home/u/chain"}) {
            CAPTURE(link);
            check_refused(fs.read_file(link), link);
            auto mapped = fs.map_file(link, 1U << 20U);
            REQUIRE_FALSE(mapped.ok());
            CHECK(mapped.gap().reason == GapReason::untrusted);
            CHECK_FALSE(fs.stat(link).ok());
            CHECK_FALSE(fs.real_path(link).ok());
            CHECK_FALSE(fs.host_path(link).ok());
            // Not following it is still allowed: the link itself is nobody's to show.
            CHECK(fs.stat(link, false).ok());
            CHECK(fs.read_link(link).ok());
        }
        // The message names the owner by the root's own /etc/passwd.
        auto named = fs.read_file("/home/u/secret-abs");
        REQUIRE_FALSE(named.ok());
        CHECK(named.gap().message ==
              "/home/u/secret-abs: not followed: symbolic link owned by uid 65534 (nobody), "
              "target owned by root (--allow-foreign-links follows it)");
        // A link to root's directory, on the way to a file: named as the link on the way.
        check_refused(fs.read_file("/home/u/vault-dir/secret"), "/home/u/vault-dir");
        CHECK_FALSE(fs.list_dir("/home/u/vault-dir").ok());
        // Targets that add no component, or climb: "/" and "..".
        check_refused(fs.read_file("/home/u/to-root/vault/secret"), "/home/u/to-root");
        check_refused(fs.read_file("/home/u/up/u/../../vault/secret"), "/home/u/up");
        // Many files of one directory reached through the link (the directory cache opens a
        // directory on its second use): every one refused.
        for (int i = 0; i < 3; ++i)
            check_refused(fs.read_file("/home/u/vault-dir/secret"), "/home/u/vault-dir");
        auto many = fs.dir_files("/home/u/vault-dir");
        check_refused(many->read_file("/home/u/vault-dir/secret", 1U << 20U), "/home/u/vault-dir");
        // Followed: the owner's own target, root's link, and paths with no link at all.
        CHECK(fs.read_file("/home/u/mine").value() == "mine\n");
        CHECK(fs.read_file("/etc/by-root").value() == "TOPSECRET\n");
        CHECK(fs.read_file("/vault/secret").value() == "TOPSECRET\n");
        CHECK(fs.real_path("/home/u/mine").value() == "/home/u/own/file");
        // A directory walked once is remembered; a link in it is still judged.
        for (int i = 0; i < 3; ++i) {
            CHECK(fs.read_file("/home/u/owndir/file").value() == "mine\n");
            check_refused(fs.read_file("/home/u/owndir/leak"), "/home/u/owndir/leak");
        }
    }
}

TEST_CASE("without the owner rule the same links are followed (a process reading as its user)") {
    if (needs_root()) return;
    PlantedTree planted;
    for (auto resolution : kLinkResolutions) {
        CAPTURE(static_cast<int>(resolution));
        auto fs = RootedFs::open(planted.tree.root(), resolution, false, LinkRule{});
        REQUIRE(fs.ok());
        CHECK(fs->read_file("/home/u/secret-abs").value() == "TOPSECRET\n");
        CHECK(fs->read_file("/home/u/vault-dir/secret").value() == "TOPSECRET\n");
    }
}

TEST_CASE("on the live root, another user's link to root's file is refused") {
    if (needs_root()) return;
    PlantedTree planted;
    auto fs = RootedFs::open("/", RootedFs::Resolution::kernel, true, owner_rule());
    REQUIRE(fs.ok());
    const std::string link = planted.tree.host("/home/u/secret-rel");
    check_refused(fs->read_file(link), link);
    check_refused(fs->read_file(planted.tree.host("/home/u/chain")),
                  planted.tree.host("/home/u/chain"));
    check_refused(fs->read_file(planted.tree.host("/home/u/vault-dir/secret")),
                  planted.tree.host("/home/u/vault-dir"));
    CHECK_FALSE(fs->real_path(link).ok());
    CHECK_FALSE(fs->stat(link).ok());
    CHECK(fs->read_file(planted.tree.host("/home/u/mine")).value() == "mine\n");
    CHECK(fs->read_file(planted.tree.host("/etc/by-root")).value() == "TOPSECRET\n");
    CHECK(fs->real_path(planted.tree.host("/home/u/mine")).value() ==
          planted.tree.host("/home/u/own/file"));
    // A root named through another user's link is refused as a whole.
    auto through = RootedFs::open(planted.tree.host("/home/u/vault-dir"),
                                  RootedFs::Resolution::kernel, false, owner_rule());
    REQUIRE_FALSE(through.ok());
    CHECK(through.gap().reason == GapReason::untrusted);
}

TEST_CASE("--allow-foreign-links follows what the rule refuses and reports each link") {
    if (needs_root()) return;
    PlantedTree planted;
    std::vector<std::string> reported;
    LinkRule rule = owner_rule();
    rule.on_followed_anyway = [&](const std::string& followed) { reported.push_back(followed); };
    for (auto resolution : kLinkResolutions) {
        reported.clear();
        auto fs = RootedFs::open(planted.tree.root(), resolution, false, rule);
        REQUIRE(fs.ok());
        CHECK(fs->read_file("/home/u/secret-abs").value() == "TOPSECRET\n");
        REQUIRE(reported.size() == 1);
        CHECK(reported[0] ==
              "/home/u/secret-abs: symbolic link owned by uid 65534 (nobody), target owned by "
              "root");
    }
}

TEST_CASE("a recorded run keeps the refusal, never the target's bytes") {
    if (needs_root()) return;
    PlantedTree planted;
    auto fs =
        RootedFs::open(planted.tree.root(), RootedFs::Resolution::kernel, false, owner_rule());
    REQUIRE(fs.ok());
    const RecordingFs recording(*fs);
    CHECK_FALSE(recording.fs().read_file("/home/u/secret-abs").ok());
    const auto recorded = recording.recorded();
    const PathAccess& access = recorded.at("/home/u/secret-abs");
    CHECK_FALSE(access.content.has_value());
    REQUIRE(access.gaps.count(PathAccess::read) == 1);
    CHECK(access.gaps.at(PathAccess::read).reason == GapReason::untrusted);
}

}  // namespace rdmi
