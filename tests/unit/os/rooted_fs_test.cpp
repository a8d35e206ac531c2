// Tests for RootedFs: links stay inside the root, loops never hang, reads are bounded.
#include "os/rooted_fs.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/mman.h>

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <vector>

#include "os/path_resolver.hpp"
#include "support/as_unprivileged.hpp"
#include "support/fs_answers.hpp"
#include "support/native_arch.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

constexpr std::array kResolutions{RootedFs::Resolution::kernel, RootedFs::Resolution::userspace};

RootedFs open_root(const test::TempTree& tree, RootedFs::Resolution resolution) {
    auto fs = RootedFs::open(tree.root(), resolution);
    REQUIRE(fs.ok());
    return fs.value();
}

}  // namespace

TEST_CASE("RootedFs reads files and lists directories below the root") {
    test::TempTree tree;
    tree.write("/etc/mlnx-release", "DOCA_3.3.0_BSP\n");
    tree.write("/etc/b", "b");
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        const auto fs = open_root(tree, resolution);
        auto text = fs.read_file("/etc/mlnx-release");
        REQUIRE(text.ok());
        CHECK(*text == "DOCA_3.3.0_BSP\n");
        auto entries = fs.list_dir("/etc");
        REQUIRE(entries.ok());
        REQUIRE(entries->size() == 2);
        CHECK(entries->at(0).name == "b");
        CHECK(entries->at(1).name == "mlnx-release");
        CHECK(entries->at(1).type == FileType::regular);
        CHECK_FALSE(fs.is_live());
    }
}

TEST_CASE("RootedFs keeps absolute and relative link targets inside the root") {
    test::TempTree tree;
    tree.write("/opt/mellanox/doca/applications/VERSION", "3.3.0\n");
    tree.symlink("/opt/mellanox/doca", "/usr/doca");
    tree.symlink("../../opt/mellanox/doca/applications/VERSION", "/var/lib/version");
    tree.symlink("/../../../../etc/passwd", "/escape");
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        const auto fs = open_root(tree, resolution);
        CHECK(fs.read_file("/usr/doca/applications/VERSION").value() == "3.3.0\n");
        CHECK(fs.read_file("/var/lib/version").value() == "3.3.0\n");
        CHECK(fs.real_path("/var/lib/version").value() ==
              "/opt/mellanox/doca/applications/VERSION");
        CHECK(fs.read_link("/usr/doca").value() == "/opt/mellanox/doca");
        // The host's /etc/passwd must never be reached through the root.
        auto escaped = fs.read_file("/escape");
        REQUIRE_FALSE(escaped.ok());
        CHECK(escaped.gap().reason == GapReason::not_found);
        CHECK(fs.host_path("/usr/doca/applications").value() ==
              tree.root() + "/opt/mellanox/doca/applications");
    }
}

TEST_CASE("\"..\" at the root stays at the root, in paths and in link targets") {
    // The root is a directory inside the tree, so a ".." that climbs out of it would land on
    // a real file next to it: the escape succeeds visibly instead of failing by luck.
    test::TempTree tree;
    tree.write("/outside", "host secret\n");
    tree.write("/root/lib/libx.so", "x");
    tree.symlink("../../../outside", "/root/lib/up");
    const std::string root = tree.host("/root");
    // The user-space resolver directly: the kernel's openat2 is never involved here.
    CHECK(resolve_in_root(root, "/../outside", true).value() == "/outside");
    CHECK(resolve_in_root(root, "/lib/../../../outside", true).value() == "/outside");
    CHECK(resolve_in_root(root, "/..", true).value() == "/");
    CHECK(resolve_in_root(root, "/lib/up", true).value() == "/outside");
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        auto fs = RootedFs::open(root, resolution);
        REQUIRE(fs.ok());
        for (const char* path : {"/../outside", "/lib/../../outside", "/lib/up"}) {
            CAPTURE(path);
            auto escaped = fs->read_file(path);
            REQUIRE_FALSE(escaped.ok());
            CHECK(escaped.gap().reason == GapReason::not_found);
        }
        CHECK(fs->read_file("/../lib/libx.so").value() == "x");
        CHECK(fs->real_path("/../../lib/../lib/libx.so").value() == "/lib/libx.so");
    }
}

TEST_CASE("a regular file in the middle of a path is not a directory, in both resolutions") {
    // "/lib/libx.so/.." walked through the file would come back out at "/lib": the kernel
    // refuses it (ENOTDIR), and so must the user-space resolver used without openat2.
    test::TempTree tree;
    tree.write("/lib/libx.so", "x");
    const std::string root = tree.root();
    for (const std::string path : {"/lib/libx.so/..", "/lib/libx.so/../libx.so"}) {
        CAPTURE(path);
        for (const bool follow_last : {true, false}) {
            auto resolved = resolve_in_root(root, path, follow_last);
            REQUIRE_FALSE(resolved.ok());
            CHECK(resolved.gap().message == path + ": no such file or directory");
        }
        for (auto resolution : kResolutions) {
            CAPTURE(static_cast<int>(resolution));
            const auto fs = open_root(tree, resolution);
            CHECK(fs.stat(path).gap().reason == GapReason::not_found);
            CHECK(fs.real_path(path).gap().reason == GapReason::not_found);
            CHECK(fs.host_path(path).gap().reason == GapReason::not_found);
        }
    }
    // Without following the last component, a name below a file is still refused.
    CHECK_FALSE(resolve_in_root(root, "/lib/libx.so/child", false).ok());
    // The control: the same names without the detour resolve.
    CHECK(resolve_in_root(root, "/lib/./libx.so", true).value() == "/lib/libx.so");
}

TEST_CASE("a missing directory in the middle of a path is an error; a missing last name is not") {
    // Only the final component may be missing (the caller's own open reports it). A resolver
    // that stopped at the first missing directory would answer "/nope" for "/nope/x".
    test::TempTree tree;
    tree.write("/lib/libx.so", "x");
    const std::string root = tree.root();
    for (const std::string path : {"/nope/x", "/nope/../lib/libx.so", "/lib/nope/x"}) {
        CAPTURE(path);
        auto resolved = resolve_in_root(root, path, true);
        REQUIRE_FALSE(resolved.ok());
        CHECK(resolved.gap().reason == GapReason::not_found);
        CHECK(resolved.gap().message == path + ": no such file or directory");
        for (auto resolution : kResolutions) {
            CAPTURE(static_cast<int>(resolution));
            CHECK(open_root(tree, resolution).host_path(path).gap().reason == GapReason::not_found);
        }
    }
    CHECK(resolve_in_root(root, "/lib/nope", true).value() == "/lib/nope");
    CHECK(resolve_in_root(root, "/lib/nope", false).value() == "/lib/nope");
    CHECK(open_root(tree, RootedFs::Resolution::userspace).host_path("/lib/nope").value() ==
          tree.host("/lib/nope"));
}

TEST_CASE("the user-space open refuses a link swapped in after the path was resolved") {
    // Without openat2 a path is resolved with lstat and then opened by its host name. A link
    // put in place between the two must not be followed: the host would resolve its "..",
    // which leaves the root. Another thread swaps a file and such a link back and forth.
    test::TempTree tree;
    tree.write("/outside", "host secret\n");
    tree.write("/root/a", "inside\n");
    tree.symlink("../outside", "/root/b");
    const auto fs = RootedFs::open(tree.host("/root"), RootedFs::Resolution::userspace);
    REQUIRE(fs.ok());
    std::atomic<bool> stop{false};
    std::thread swapper([&stop, a = tree.host("/root/a"), b = tree.host("/root/b")] {
        while (!stop.load()) ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE);
    });
    int escaped = 0;
    int caught = 0;  // opens that met the swapped-in link: the window the test is about
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (escaped == 0 && caught < 20 && std::chrono::steady_clock::now() < until) {
        auto read = fs->read_file("/a");
        if (read.ok() && *read == "host secret\n") ++escaped;
        if (!read.ok() && read.gap().message == "/a: symbolic link loop") ++caught;
    }
    stop = true;
    swapper.join();
    MESSAGE(caught << " opens met a link swapped in after resolution");
    CHECK(escaped == 0);
}

TEST_CASE("real_path never answers with a path relative to a root that was renamed") {
    // The kernel names an open file by its host path; one that is below "<root>2" after the
    // root was renamed is not below "<root>". real_path must not cut "<root>" off it.
    if (!test::have_openat2()) {
        MESSAGE("openat2 fails here (kernel, seccomp or emulator): no kernel resolution to test");
        return;
    }
    test::TempTree tree;
    tree.write("/root/lib/libx.so", "x");
    auto fs = RootedFs::open(tree.host("/root"), RootedFs::Resolution::kernel);
    REQUIRE(fs.ok());
    REQUIRE(fs->kernel_resolution());
    CHECK(fs->real_path("/lib/libx.so").value() == "/lib/libx.so");
    std::filesystem::rename(tree.host("/root"), tree.host("/root2"));
    // The kernel still opens through the old root's descriptor ("<root>2/lib/libx.so"); the
    // answer comes from resolving by the root's name, which is gone.
    auto moved = fs->real_path("/lib/libx.so");
    REQUIRE_FALSE(moved.ok());
    CHECK(moved.gap().reason == GapReason::not_found);
    // A new tree under the old name answers for it.
    tree.write("/root/lib/libx.so", "y");
    CHECK(fs->real_path("/lib/libx.so").value() == "/lib/libx.so");
}

TEST_CASE("RootedFs reports a symlink loop as an error, not a hang") {
    test::TempTree tree;
    tree.symlink("b", "/a");
    tree.symlink("a", "/b");
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        const auto fs = open_root(tree, resolution);
        auto loop = fs.read_file("/a");
        REQUIRE_FALSE(loop.ok());
        CHECK(loop.gap().message == "/a: symbolic link loop");
        CHECK_FALSE(fs.stat("/a").ok());
        CHECK(fs.stat("/a", false).value().type == FileType::symlink);
    }
}

// A FIFO where a file is expected: rooted_fs_no_open_test.cpp (refused, never opened).
TEST_CASE("RootedFs refuses a directory as a file") {
    test::TempTree tree;
    tree.write("/opt/VERSION", "3.3\n");
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        const auto fs = open_root(tree, resolution);
        auto dir = fs.read_file("/opt");
        REQUIRE_FALSE(dir.ok());
        CHECK(dir.gap().message.find("/opt: is a directory") == 0);
    }
}

TEST_CASE("RootedFs caps how much it reads from one file") {
    test::TempTree tree;
    tree.write("/big", std::string(5000, 'x'));
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        const auto fs = open_root(tree, resolution);
        CHECK(fs.read_file("/big", 5000).ok());
        auto big = fs.read_file("/big", 4999);
        REQUIRE_FALSE(big.ok());
        CHECK(big.gap().message == "/big: larger than 4999 bytes");
    }
}

TEST_CASE("RootedFs reads files of every size around the page its first buffer holds") {
    test::TempTree tree;
    const std::array sizes{std::size_t{0},    std::size_t{1},    std::size_t{4095},
                           std::size_t{4096}, std::size_t{4097}, std::size_t{4098},
                           std::size_t{8193}, std::size_t{70000}};
    const auto text_of = [](std::size_t size) {
        std::string text(size, 'x');
        for (std::size_t i = 0; i < size; i += 97) text[i] = static_cast<char>('a' + i % 26);
        return text;
    };
    for (const std::size_t size : sizes) tree.write("/f" + std::to_string(size), text_of(size));
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        const auto fs = open_root(tree, resolution);
        for (const std::size_t size : sizes) {
            CAPTURE(size);
            auto got = fs.read_file("/f" + std::to_string(size));
            REQUIRE(got.ok());
            CHECK(*got == text_of(size));
        }
    }
}

TEST_CASE("a pseudo-file longer than a page whose size says 0 is read whole") {
    // procfs gives st_size 0: the first buffer is one page on the stack, and the rest follows
    // in a string that grows. 300 mappings of alternating protection (never merged) make
    // /proc/self/maps far longer than a page.
    std::vector<void*> regions;
    const auto page = static_cast<std::size_t>(::getpagesize());
    for (int i = 0; i < 300; ++i) {
        void* at = ::mmap(nullptr, page, i % 2 == 0 ? PROT_READ : PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        REQUIRE(at != MAP_FAILED);
        regions.push_back(at);
    }
    auto fs = RootedFs::open("/");
    REQUIRE(fs.ok());
    auto maps = fs->read_file("/proc/self/maps");
    for (void* at : regions) ::munmap(at, page);
    REQUIRE(maps.ok());
    CHECK(maps->size() > 4 * page);
    CHECK(maps->back() == '\n');
    for (void* at : {regions.front(), regions.back()}) {
        std::array<char, 32> start{};
        std::snprintf(start.data(), start.size(), "%lx-", reinterpret_cast<unsigned long>(at));
        CHECK_MESSAGE(maps->find(start.data()) != std::string::npos, start.data());
    }
}

TEST_CASE("RootedFs names missing and unreadable files") {
    test::TempTree tree;
    tree.write("/secret", "x", 0000);
    tree.write("/file", "x");
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        const auto fs = open_root(tree, resolution);
        auto missing = fs.read_file("/nope/x");
        REQUIRE_FALSE(missing.ok());
        CHECK(missing.gap().reason == GapReason::not_found);
        CHECK(missing.gap().message == "/nope/x: no such file or directory");
        CHECK(fs.read_file("/file/child").gap().reason == GapReason::not_found);
        // Checked as nobody: root would read a mode-000 file and the check could not fail.
        const test::AsUnprivileged nobody;
        CHECK(fs.read_file("/secret").gap().reason == GapReason::permission_denied);
    }
}

TEST_CASE("dir_files reads a directory's files as read_file does, links still below the root") {
    // The root is a directory inside the tree: a file or link that escaped it would land on
    // the real "outside" and "etc/passwd" next to it, visibly.
    test::TempTree tree;
    tree.write("/outside", "host secret\n");
    tree.write("/etc/passwd", "host passwd\n");
    tree.write("/root/etc/passwd", "in root\n");
    tree.write("/root/pc/a.pc", "a\n");
    tree.write("/root/pc/big.pc", std::string(100, 'x'));
    tree.write("/root/pc/secret.pc", "x", 0000);
    tree.write("/root/other/b.pc", "b\n");
    tree.symlink("/etc/passwd", "/root/pc/absolute.pc");
    tree.symlink("../../outside", "/root/pc/up.pc");
    tree.symlink("../../../../../../outside", "/root/pc/far-up.pc");
    tree.symlink("a.pc", "/root/pc/sibling.pc");
    tree.symlink("loop.pc", "/root/pc/loop.pc");
    tree.fifo("/root/pc/fifo.pc");
    tree.mkdir("/root/pc/dir.pc");
    const std::string root = tree.host("/root");
    const std::array paths{"/pc/a.pc",       "/pc/absolute.pc", "/pc/up.pc",     "/pc/far-up.pc",
                           "/pc/sibling.pc", "/pc/loop.pc",     "/pc/fifo.pc",   "/pc/dir.pc",
                           "/pc/big.pc",     "/pc/missing.pc",  "/pc/secret.pc", "/other/b.pc",
                           "/pc/../a.pc",    "/pc/.",           "/pc/a.pc/",     "/pc/../outside"};
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        auto opened = RootedFs::open(root, resolution);
        REQUIRE(opened.ok());
        const RootedFs& fs = opened.value();
        for (const char* dir : {"/pc", "/pc/", "/nowhere", "/pc/a.pc"}) {
            CAPTURE(dir);
            const auto files = fs.dir_files(dir);
            REQUIRE(files != nullptr);
            for (const char* path : paths) {
                CAPTURE(path);
                auto by_path = fs.read_file(path, 64);
                auto by_dir = files->read_file(path, 64);
                REQUIRE(by_dir.ok() == by_path.ok());
                if (by_path.ok()) {
                    CHECK(*by_dir == *by_path);
                } else {
                    CHECK(by_dir.gap().reason == by_path.gap().reason);
                    CHECK(by_dir.gap().message == by_path.gap().message);
                }
            }
            // Links are resolved below the root, never next to it.
            CHECK(files->read_file("/pc/absolute.pc", 64).value() == "in root\n");
            CHECK(files->read_file("/pc/sibling.pc", 64).value() == "a\n");
            CHECK(files->read_file("/pc/up.pc", 64).gap().reason == GapReason::not_found);
            CHECK(files->read_file("/pc/far-up.pc", 64).gap().reason == GapReason::not_found);
            CHECK(files->read_file("/pc/big.pc", 64).gap().message ==
                  "/pc/big.pc: larger than 64 bytes");
        }
        // Checked as nobody: root would read a mode-000 file and the check could not fail.
        const auto files = fs.dir_files("/pc");
        const test::AsUnprivileged nobody;
        CHECK(files->read_file("/pc/secret.pc", 64).gap().reason == GapReason::permission_denied);
    }
}

TEST_CASE("dir_files reads a file replaced by a link after the directory was opened safely") {
    test::TempTree tree;
    tree.write("/outside", "host secret\n");
    tree.write("/root/pc/a.pc", "a\n");
    const std::string root = tree.host("/root");
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        auto opened = RootedFs::open(root, resolution);
        REQUIRE(opened.ok());
        const auto files = opened->dir_files("/pc");
        CHECK(files->read_file("/pc/a.pc", 64).value() == "a\n");
        // Planted between two reads: the reader holds the directory, not a resolved file.
        REQUIRE(::unlink(tree.host("/root/pc/a.pc").c_str()) == 0);
        tree.symlink("../../outside", "/root/pc/a.pc");
        CHECK(files->read_file("/pc/a.pc", 64).gap().reason == GapReason::not_found);
        REQUIRE(::unlink(tree.host("/root/pc/a.pc").c_str()) == 0);
        tree.write("/root/pc/a.pc", "a\n");
    }
}

TEST_CASE("RootedFs::open refuses a missing root and a file root") {
    test::TempTree tree;
    tree.write("/file", "x");
    CHECK(RootedFs::open(tree.root() + "/missing").gap().reason == GapReason::not_found);
    CHECK(RootedFs::open(tree.root() + "/file").gap().message.find("not a directory") !=
          std::string::npos);
}

TEST_CASE("kernel resolution is used where the kernel has openat2") {
    test::TempTree tree;
    // Decided by trying the system call: where it fails (Linux before 5.6, a seccomp profile,
    // qemu-user 7.2, which does not emulate it), the kernel choice falls back to user space.
    const bool openat2 = test::have_openat2();
    if (!openat2) MESSAGE("openat2 fails here: checking the fall-back to user-space resolution");
    CHECK(open_root(tree, RootedFs::Resolution::kernel).kernel_resolution() == openat2);
    CHECK_FALSE(open_root(tree, RootedFs::Resolution::userspace).kernel_resolution());
}

TEST_CASE("map_file maps a regular file and applies read_file's rules") {
    test::TempTree tree;
    tree.write("/lib/libx.so", std::string(10000, 'e'));
    tree.write("/empty", "");
    tree.fifo("/fifo");
    for (auto resolution : kResolutions) {
        const auto fs = open_root(tree, resolution);
        auto mapped = fs.map_file("/lib/libx.so", 1U << 20U);
        REQUIRE(mapped.ok());
        CHECK((*mapped)->bytes() == std::string(10000, 'e'));
        CHECK((*fs.map_file("/empty", 10))->bytes().empty());
        CHECK(fs.map_file("/lib/libx.so", 9999).gap().message ==
              "/lib/libx.so: larger than 9999 bytes");
        CHECK(fs.map_file("/fifo", 10).gap().message == "/fifo: is a FIFO, not a regular file");
    }
}

TEST_CASE("RootedFs on / is live and resolves through the kernel") {
    auto fs = RootedFs::open("/");
    REQUIRE(fs.ok());
    CHECK(fs->is_live());
    CHECK(fs->stat("/").value().type == FileType::directory);
}

TEST_CASE("RootedFs on / named explicitly is static, however it is spelled") {
    for (const char* root : {"/", "/.", "//", "/tmp/.."}) {
        auto fs = RootedFs::open(root, RootedFs::Resolution::kernel, false);
        REQUIRE(fs.ok());
        CHECK(fs->root() == "/");
        CHECK_FALSE(fs->is_live());
        // It still reads the running system's files.
        CHECK(fs->stat("/").value().type == FileType::directory);
        CHECK(fs->read_file("/proc/self/stat").ok());
    }
}

TEST_CASE("a view's cached directories give every answer a fresh view gives") {
    // A fresh view resolves each path from the root; a used one opens the files of its
    // directories relative to them (and deeper paths relative to the nearest one). Links must
    // still be resolved below the root, and every gap must read the same.
    test::TempTree tree;
    tree.write("/outside", "host secret\n");
    tree.write("/etc/passwd", "host passwd\n");
    tree.write("/root/etc/passwd", "in root\n");
    tree.write("/root/sys/dev/vendor", "0x15b3\n");
    tree.write("/root/sys/dev/page", std::string(4096, 'p'));
    tree.write("/root/sys/dev/over", std::string(4097, 'o'));
    tree.write("/root/sys/dev/big", std::string(70000, 'b'));
    tree.write("/root/sys/dev/empty", "");
    tree.write("/root/sys/dev/secret", "x", 0000);
    tree.write("/root/sys/dev/sub/deep/attr", "deep\n");
    tree.symlink("/etc/passwd", "/root/sys/dev/absolute");
    tree.symlink("../../../../outside", "/root/sys/dev/up");
    tree.symlink("vendor", "/root/sys/dev/sibling");
    tree.symlink("loop", "/root/sys/dev/loop");
    tree.symlink("../dev", "/root/sys/class/dev0");
    tree.symlink("/sys/dev/sub", "/root/sys/dev/sublink");
    tree.fifo("/root/sys/dev/fifo");
    tree.mkdir("/root/sys/dev/dir");
    const std::string root = tree.host("/root");
    const std::vector<std::string> paths{
        "/sys/dev/vendor",        "/sys/dev/page",
        "/sys/dev/over",          "/sys/dev/big",
        "/sys/dev/empty",         "/sys/dev/secret",
        "/sys/dev/absolute",      "/sys/dev/up",
        "/sys/dev/sibling",       "/sys/dev/loop",
        "/sys/dev/fifo",          "/sys/dev/dir",
        "/sys/dev/missing",       "/sys/dev/sub/deep/attr",
        "/sys/dev/sub/deep",      "/sys/dev/nodir/attr",
        "/sys/dev/vendor/x",      "/sys/class/dev0/vendor",
        "/sys/class/dev0",        "/sys/dev/sublink/deep/attr",
        "/sys/dev/../dev/vendor", "/sys/dev/./vendor",
        "/sys/dev//vendor",       "/sys/dev/sub/deep/../../vendor"};
    for (auto resolution : kResolutions) {
        CAPTURE(static_cast<int>(resolution));
        auto used = RootedFs::open(root, resolution);
        REQUIRE(used.ok());
        for (int round = 0; round < 3; ++round) {
            for (const auto& path : paths) {
                CAPTURE(round);
                CAPTURE(path);
                auto fresh = RootedFs::open(root, resolution);
                REQUIRE(fresh.ok());
                CHECK(test::fs_answers(*used, path) == test::fs_answers(*fresh, path));
            }
        }
        // The warm view read what is below the root, never the host's files.
        CHECK(*used->read_file("/sys/dev/absolute") == "in root\n");
        CHECK_FALSE(used->read_file("/sys/dev/up").ok());
        CHECK(used->read_file("/sys/dev/page", 4096)->size() == 4096);
        CHECK(used->read_file("/sys/dev/over", 4096).gap().message ==
              "/sys/dev/over: larger than 4096 bytes");
        CHECK(used->read_file("/sys/dev/big")->size() == 70000);
    }
}

}  // namespace rdmi
