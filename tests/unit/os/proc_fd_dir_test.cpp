// The held /proc/self/fd: a descriptor reopened through it is the same inode, and a forked
// child reopens its own descriptors, never its parent's.
#include "os/proc_fd_dir.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "os/unique_fd.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

bool same_inode(int a, int b) {
    struct stat sa {};
    struct stat sb {};
    return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

TEST_CASE("an O_PATH descriptor reopened through the held /proc/self/fd reads its file") {
    test::TempTree tree;
    tree.write("/a", "alpha\n");
    const UniqueFd path_fd(::open(tree.host("/a").c_str(), O_PATH | O_CLOEXEC));
    REQUIRE(path_fd.get() >= 0);
    if (proc_self_fd_dir() < 0) {
        MESSAGE("no procfs at /proc/self/fd here: the reopen falls back to the name");
        CHECK(reopen_through_proc(path_fd.get(), O_RDONLY) == -1);
        CHECK(errno == ENOENT);
        return;
    }
    // The same descriptor on every call: opened once.
    CHECK(proc_self_fd_dir() == proc_self_fd_dir());
    const UniqueFd opened(reopen_through_proc(path_fd.get(), O_RDONLY));
    REQUIRE(opened.get() >= 0);
    CHECK(same_inode(opened.get(), path_fd.get()));
    std::string text(16, '\0');
    const ssize_t got = ::read(opened.get(), text.data(), text.size());
    REQUIRE(got == 6);
    CHECK(text.substr(0, 6) == "alpha\n");
    // A number no descriptor holds: nothing to reopen.
    CHECK(reopen_through_proc(1000000, O_RDONLY) == -1);
}

TEST_CASE("a forked child reopens its own descriptor, not the parent's of the same number") {
    test::TempTree tree;
    tree.write("/parent", "parent\n");
    tree.write("/child", "child\n");
    if (proc_self_fd_dir() < 0) {
        MESSAGE("no procfs at /proc/self/fd here: nothing is held");
        return;
    }
    // The parent holds the directory and has `parent` open as number 900.
    const int number = 900;
    const UniqueFd in_parent(::open(tree.host("/parent").c_str(), O_PATH | O_CLOEXEC));
    REQUIRE(in_parent.get() >= 0);
    REQUIRE(::fcntl(number, F_GETFD) == -1);  // no one's
    REQUIRE(::dup3(in_parent.get(), number, O_CLOEXEC) == number);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // The child's number 900 is `child`: a reopen through the parent's /proc/<pid>/fd
        // would give `parent`.
        const int mine = ::open(tree.host("/child").c_str(), O_PATH | O_CLOEXEC);
        if (mine < 0 || ::dup3(mine, number, O_CLOEXEC) != number) _exit(2);
        const int opened = reopen_through_proc(number, O_RDONLY);
        if (opened < 0) _exit(3);
        _exit(same_inode(opened, mine) ? 0 : 1);
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    ::close(number);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    // The parent's still answers for the parent.
    const UniqueFd again(reopen_through_proc(in_parent.get(), O_RDONLY));
    REQUIRE(again.get() >= 0);
    CHECK(same_inode(again.get(), in_parent.get()));
}

}  // namespace
}  // namespace rdmi
