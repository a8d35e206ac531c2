// Tests for MemoryFs: the same answers as RootedFs over the same tree, and the owners, modes
// and links the trust rules read.
#include "support/memory_fs.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "os/link_rule.hpp"
#include "os/rooted_fs.hpp"
#include "support/fs_answers.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::test {
namespace {

constexpr uid_t kNobody = 65534;

// A tree with what resolution and the trust rules meet: links that try to leave the root,
// relative and absolute, a loop, a FIFO, a group-writable directory, a file of another user,
// and a link of another user to root's file.
void plant(const TempTree& tree) {
    tree.write("/etc/os-release", "ID=test\n");
    tree.write("/usr/lib/libx.so.1", "ELF");
    tree.symlink("libx.so.1", "/usr/lib/libx.so");
    tree.symlink("../../../../etc/os-release", "/usr/lib/up");
    tree.symlink("/etc", "/usr/lib/etc");
    tree.symlink("/nowhere", "/usr/lib/dangling");
    tree.symlink("loop-b", "/usr/lib/loop-a");
    tree.symlink("loop-a", "/usr/lib/loop-b");
    tree.fifo("/run/fifo");
    tree.mkdir("/shared", 0775);
    tree.write("/shared/theirs", "x");
    REQUIRE(::lchown(tree.host("/shared/theirs").c_str(), kNobody, kNobody) == 0);
    tree.symlink("/etc/os-release", "/shared/foreign");
    REQUIRE(::lchown(tree.host("/shared/foreign").c_str(), kNobody, kNobody) == 0);
    tree.write("/big", std::string(100, 'b'));
}

const std::vector<std::string> kPaths{"/",
                                      "/etc",
                                      "/etc/os-release",
                                      "/usr/lib/libx.so",
                                      "/usr/lib/up",
                                      "/usr/lib/etc/os-release",
                                      "/usr/lib/etc/../etc/os-release",
                                      "/../../etc/os-release",
                                      "/usr/lib/dangling",
                                      "/usr/lib/loop-a",
                                      "/usr/lib/loop-a/x",
                                      "/run/fifo",
                                      "/shared",
                                      "/shared/theirs",
                                      "/shared/foreign",
                                      "/usr/lib/libx.so/x",
                                      "/missing/x",
                                      "/big"};

}  // namespace

TEST_CASE("MemoryFs gives RootedFs's answers for the same tree, with and without the owner rule") {
    if (::geteuid() != 0) return;  // the tree has a file of another user: only root makes one
    TempTree tree;
    plant(tree);
    for (const bool owner_match : {false, true}) {
        CAPTURE(owner_match);
        LinkRule rule;
        rule.owner_match = owner_match;
        auto rooted = RootedFs::open(tree.root(), RootedFs::Resolution::kernel, false, rule);
        REQUIRE(rooted.ok());
        const MemoryFs memory = MemoryFs::copy_of(tree.root(), owner_match);
        for (const auto& path : kPaths) {
            CAPTURE(path);
            CHECK(fs_answers(memory, path) == fs_answers(*rooted, path));
        }
    }
}

TEST_CASE("MemoryFs keeps a link that climbs out of the root inside it") {
    MemoryFs fs;
    fs.write("/etc/passwd", "in the root\n");
    fs.symlink("../../../../etc/passwd", "/usr/lib/up");
    fs.symlink("/etc/passwd", "/usr/lib/abs");
    CHECK(fs.read_file("/usr/lib/up").value() == "in the root\n");
    CHECK(fs.real_path("/usr/lib/abs").value() == "/etc/passwd");
    CHECK(fs.real_path("/../..").value() == "/");
}

TEST_CASE(
    "MemoryFs reports owners and modes as stat does: a group-writable directory, a file "
    "of another user") {
    MemoryFs fs;
    fs.mkdir("/opt/doca", 0775, {0, 27});
    fs.write("/opt/doca/lib/libdoca.so", "ELF", 0644, {1000, 1000});
    const auto dir = fs.stat("/opt/doca").value();
    CHECK(dir.type == FileType::directory);
    CHECK((dir.mode & 0020U) != 0);
    CHECK(dir.gid == 27);
    const auto file = fs.stat("/opt/doca/lib/libdoca.so").value();
    CHECK(file.uid == 1000);
    CHECK(file.mode == 0644);
    fs.chmod("/opt/doca", 0755);
    fs.chown("/opt/doca/lib/libdoca.so", {});
    CHECK(fs.stat("/opt/doca").value().mode == 0755);
    CHECK(fs.stat("/opt/doca/lib/libdoca.so").value().uid == 0);
}

TEST_CASE("MemoryFs's owner rule refuses another user's link to root's file, and follows root's") {
    MemoryFs fs("/memory", true);
    fs.write("/etc/shadow", "secret");
    fs.symlink("/etc/shadow", "/home/u/planted", {kNobody, kNobody});
    fs.symlink("/etc/shadow", "/etc/alias");
    const auto refused = fs.read_file("/home/u/planted");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.gap().reason == GapReason::untrusted);
    CHECK(refused.gap().message.starts_with("/home/u/planted: not followed: "));
    CHECK(fs.read_file("/etc/alias").value() == "secret");
    // A link to a file its owner owns is followed.
    fs.write("/home/u/own", "mine", 0644, {kNobody, kNobody});
    fs.symlink("own", "/home/u/to-own", {kNobody, kNobody});
    CHECK(fs.read_file("/home/u/to-own").value() == "mine");
}

TEST_CASE("MemoryFs refuses FIFOs and directories as files, ends loops, and has no host path") {
    MemoryFs fs;
    fs.fifo("/run/fifo");
    fs.symlink("b", "/l/a");
    fs.symlink("a", "/l/b");
    CHECK(fs.read_file("/run/fifo").gap().message == "/run/fifo: is a FIFO, not a regular file");
    CHECK(fs.read_file("/run").gap().message == "/run: is a directory, not a regular file");
    CHECK(fs.read_file("/l/a").gap().message == "/l/a: symbolic link loop");
    CHECK(fs.list_dir("/run").value().front().type == FileType::fifo);
    CHECK_FALSE(fs.host_path("/run/fifo").ok());
    CHECK_FALSE(fs.is_live());
    fs.remove("/l");
    CHECK_FALSE(fs.exists("/l/a"));
}

TEST_CASE("MemoryFs inherits Fs's map_file and dir_files, with read_file's rules") {
    MemoryFs fs;
    fs.write("/d/a", "aa");
    fs.fifo("/d/f");
    CHECK(fs.map_file("/d/a", 16).value()->bytes() == "aa");
    CHECK_FALSE(fs.map_file("/d/a", 1).ok());
    const auto files = fs.dir_files("/d");
    CHECK(files->read_file("/d/a", 16).value() == "aa");
    CHECK_FALSE(files->read_file("/d/f", 16).ok());
}

}  // namespace rdmi::test
