// RootedFs never opens what it must not read: a FIFO or device node where a file is expected is
// examined through an O_PATH descriptor and refused, its open() never runs.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <string>
#include <vector>

#include "os/rooted_fs.hpp"
#include "os/unique_fd.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

// Counts IN_OPEN events on files: the kernel reports one for every open(2) of the inode by
// anyone, and none for an O_PATH descriptor (Linux 6.5 and later; earlier kernels did).
class OpenWatch {
  public:
    OpenWatch() : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) { REQUIRE(fd_.get() >= 0); }
    void watch(const std::string& host_path) {
        REQUIRE(::inotify_add_watch(fd_.get(), host_path.c_str(), IN_OPEN) >= 0);
    }
    // The number of opens since the last call.
    int opens() const {
        int count = 0;
        alignas(inotify_event) std::array<char, 4096> buf{};
        for (ssize_t got = 0; (got = ::read(fd_.get(), buf.data(), buf.size())) > 0;) {
            for (ssize_t at = 0; at < got;) {
                const auto* event = reinterpret_cast<const inotify_event*>(buf.data() + at);
                if ((event->mask & IN_OPEN) != 0) ++count;
                at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            }
        }
        return count;
    }
    // True when an O_PATH descriptor counts as an open here (kernels before 6.5): the watch
    // then cannot tell the two apart.
    bool sees_o_path(const std::string& host_path) {
        watch(host_path);
        (void)opens();
        const UniqueFd held(::open(host_path.c_str(), O_PATH | O_CLOEXEC));
        return opens() != 0;
    }

  private:
    UniqueFd fd_;
};

// A character device 1:3 (/dev/null's driver: harmless to open, but it must not be) where the
// kernel lets us make one, a FIFO otherwise. Returns what the gap must say it is.
std::string make_node(const test::TempTree& tree, const std::string& in_tree) {
    tree.write(in_tree, "");
    const std::string host = tree.host(in_tree);
    REQUIRE(::unlink(host.c_str()) == 0);
    if (::mknod(host.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) return "character device";
    REQUIRE(::mkfifo(host.c_str(), 0666) == 0);
    return "FIFO";
}

struct Expected {
    const char* path;
    std::string type;
};

// Reads every path every way a RootedFs reads (the number of failures is returned, so that a
// forked child can report it too).
// In a forked child: a mount namespace of its own (as root, or in a user namespace), whose
// mounts do not propagate back. False when the system allows neither.
bool enter_private_mount_namespace() {
    if (::unshare(CLONE_NEWNS) != 0 && ::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return false;
    return ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0;
}

int read_every_way(const RootedFs& fs, const std::vector<Expected>& expected) {
    int failures = 0;
    for (const auto& [path, type] : expected) {
        const std::string message = std::string(path) + ": is a " + type + ", not a regular file";
        const std::string dir(dir_name(path));
        const auto in_dir = fs.dir_files(dir);
        for (const auto& gap : {fs.read_file(path).gap(), fs.map_file(path, 1U << 20U).gap(),
                                in_dir->read_file(path, 1U << 20U).gap()}) {
            if (gap.reason != GapReason::malformed || gap.message != message) ++failures;
        }
    }
    return failures;
}

}  // namespace

TEST_CASE("a device node or FIFO where a file is expected is examined, never opened") {
    test::TempTree tree;
    tree.write("/root/opt/mellanox/doca/applications/README", "x");
    const std::string device = make_node(tree, "/root/dev/null");
    tree.symlink("/dev/null", "/root/opt/mellanox/doca/applications/VERSION");
    tree.fifo("/root/sys/class/infiniband/mlx5_0/fw_ver");
    tree.fifo("/live/fifo");
    OpenWatch watch;
    // Where O_PATH descriptors show as opens, the gaps are still checked; the opens cannot be.
    const bool watched = !watch.sees_o_path(tree.host("/root/dev/null"));
    if (!watched) MESSAGE("this kernel reports O_PATH descriptors as opens: opens not checked");
    watch.watch(tree.host("/root/sys/class/infiniband/mlx5_0/fw_ver"));
    watch.watch(tree.host("/live/fifo"));
    // The watch sees a real open of each.
    for (const char* node : {"/root/dev/null", "/root/sys/class/infiniband/mlx5_0/fw_ver"}) {
        const UniqueFd opened(::open(tree.host(node).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
        REQUIRE(opened.get() >= 0);
    }
    const int real_opens = watch.opens();
    if (watched) REQUIRE(real_opens == 2);

    const std::vector<Expected> in_root{{"/dev/null", device},
                                        {"/opt/mellanox/doca/applications/VERSION", device},
                                        {"/sys/class/infiniband/mlx5_0/fw_ver", "FIFO"}};
    for (auto resolution : {RootedFs::Resolution::kernel, RootedFs::Resolution::userspace}) {
        CAPTURE(static_cast<int>(resolution));
        auto fs = RootedFs::open(tree.host("/root"), resolution, false);
        REQUIRE(fs.ok());
        // Twice: the second time through cached directory descriptors.
        CHECK(read_every_way(*fs, in_root) == 0);
        CHECK(read_every_way(*fs, in_root) == 0);
        CHECK(fs->read_file("/opt/mellanox/doca/applications/README").value() == "x");
        if (watched) CHECK(watch.opens() == 0);
    }
    // The live system's files the same way.
    auto live = RootedFs::open("/");
    REQUIRE(live.ok());
    const std::string fifo = tree.host("/live/fifo");
    CHECK(read_every_way(*live, {{fifo.c_str(), "FIFO"}}) == 0);
    if (watched) CHECK(watch.opens() == 0);
}

TEST_CASE("without /proc a file is opened a second time, and still only a regular one") {
    test::TempTree tree;
    tree.write("/root/etc/VERSION", "3.3\n");
    tree.fifo("/root/etc/fifo");
    OpenWatch watch;
    if (watch.sees_o_path(tree.host("/root/etc/fifo"))) {
        MESSAGE("this kernel reports O_PATH descriptors as opens: cannot check here");
        return;
    }
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // A private mount namespace with an empty /proc (as root, or in a user namespace).
        if (!enter_private_mount_namespace()) _exit(77);
        if (::mount("none", "/proc", "tmpfs", 0, nullptr) != 0) _exit(77);
        if (::access("/proc/self/fd", F_OK) == 0) _exit(78);
        int failures = 0;
        for (auto resolution : {RootedFs::Resolution::kernel, RootedFs::Resolution::userspace}) {
            auto fs = RootedFs::open(tree.host("/root"), resolution, false);
            if (!fs.ok()) _exit(79);
            for (int pass = 0; pass < 2; ++pass) {
                auto text = fs->read_file("/etc/VERSION");
                if (!text.ok() || *text != "3.3\n") ++failures;
                auto mapped = fs->map_file("/etc/VERSION", 100);
                if (!mapped.ok() || (*mapped)->bytes() != "3.3\n") ++failures;
                if (fs->dir_files("/etc")->read_file("/etc/VERSION", 100).value_or("") != "3.3\n")
                    ++failures;
                failures += read_every_way(*fs, {{"/etc/fifo", "FIFO"}});
            }
        }
        _exit(failures == 0 ? 0 : 1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) {
        MESSAGE("no private mount namespace here: the fall-back is not checked");
        return;
    }
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(watch.opens() == 0);
}

TEST_CASE("a live path that only starts with /sys or /proc is not read at once") {
    // "/sys/.." and "/proc/self/root" lead out of the kernel's file systems: what they name
    // gets the O_PATH check like any other file, the shortcut is for /sys and /proc only.
    test::TempTree tree;
    tree.fifo("/live/fifo");
    OpenWatch watch;
    if (watch.sees_o_path(tree.host("/live/fifo"))) {
        MESSAGE("this kernel reports O_PATH descriptors as opens: cannot check here");
        return;
    }
    (void)watch.opens();
    auto live = RootedFs::open("/");
    REQUIRE(live.ok());
    const std::string fifo = tree.host("/live/fifo");
    const std::string up = "/sys/.." + fifo;
    const std::string magic = "/proc/self/root" + fifo;
    const std::string thread = "/proc/thread-self/root" + fifo;
    CHECK(read_every_way(*live, {{up.c_str(), "FIFO"}}) == 0);
    CHECK(watch.opens() == 0);
    CHECK(read_every_way(*live, {{magic.c_str(), "FIFO"}}) == 0);
    CHECK(watch.opens() == 0);
    CHECK(read_every_way(*live, {{thread.c_str(), "FIFO"}}) == 0);
    CHECK(watch.opens() == 0);
}

TEST_CASE("a live /proc or /sys that is not the kernel's is no shortcut") {
    OpenWatch probe_kernel;
    {
        test::TempTree tree;
        tree.fifo("/fifo");
        if (probe_kernel.sees_o_path(tree.host("/fifo"))) {
            MESSAGE("this kernel reports O_PATH descriptors as opens: cannot check here");
            return;
        }
    }
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // A private mount namespace with tmpfs at /proc and /sys, each holding a FIFO.
        if (!enter_private_mount_namespace()) _exit(77);
        for (const char* dir : {"/proc", "/sys"}) {
            if (::mount("none", dir, "tmpfs", 0, nullptr) != 0) _exit(77);
        }
        if (::mkdir("/sys/class", 0755) != 0 || ::mkfifo("/sys/class/fifo", 0666) != 0 ||
            ::mkfifo("/proc/fifo", 0666) != 0)
            _exit(78);
        OpenWatch watch;
        watch.watch("/sys/class/fifo");
        watch.watch("/proc/fifo");
        auto live = RootedFs::open("/");
        if (!live.ok()) _exit(79);
        const int failures =
            read_every_way(*live, {{"/sys/class/fifo", "FIFO"}, {"/proc/fifo", "FIFO"}});
        _exit(failures == 0 && watch.opens() == 0 ? 0 : 1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) {
        MESSAGE("no private mount namespace here: not checked");
        return;
    }
    CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE(
    "the live system's /proc and /sys files are read at once, and refuse what is not a file") {
    auto live = RootedFs::open("/");
    REQUIRE(live.ok());
    // The kernel writes this process's pid first in both.
    const std::string pid = std::to_string(::getpid()) + " ";
    CHECK(live->read_file("/proc/self/stat").value().starts_with(pid));
    const auto in_dir = live->dir_files("/proc/self");
    CHECK(in_dir->read_file("/proc/self/stat", 4096).value().starts_with(pid));
    // A directory is no file, by either way in.
    CHECK_FALSE(live->read_file("/proc/self/fdinfo").ok());
    CHECK_FALSE(in_dir->read_file("/proc/self/fdinfo", 4096).ok());
    // A link to an open file (a magic link) is not followed.
    CHECK_FALSE(live->read_file("/proc/self/fd/0").ok());
}

}  // namespace rdmi
