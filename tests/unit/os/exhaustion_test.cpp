// Running out of descriptors, memory or processes is ResourceExhausted, never a gap: at the one
// errno mapping, across the isolated child's pipe and the worker's socket, at dlopen, at fork
// and posix_spawn. And a private directory is removed with two descriptors, however deep.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <functional>
#include <string>

#include "core/exhaustion.hpp"
#include "loader/dynamic_library.hpp"
#include "os/errno_gap.hpp"
#include "os/private_dir.hpp"
#include "process/isolated_call.hpp"
#include "process/isolated_worker.hpp"
#include "process/process.hpp"
#include "support/child_output.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

// The soft descriptor limit set so that exactly `spare` descriptor numbers are free below it.
bool leave_only_free_descriptors(int spare) {
    int fd = 0;
    for (int free = 0; free < spare || ::fcntl(fd, F_GETFD) >= 0; ++fd) {
        if (::fcntl(fd, F_GETFD) < 0) ++free;
    }
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
    limit.rlim_cur = static_cast<rlim_t>(fd);
    return ::setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

// 0 when `call` throws ResourceExhausted whose errno is `err` and whose message names `what` and
// the errno; 1 when it returns; 2 when the exception is another one or says something else.
int throws_exhaustion(const std::function<void()>& call, int err, const std::string& what) {
    try {
        call();
    } catch (const ResourceExhausted& e) {
        const bool named = e.message().find(what) != std::string::npos &&
                           e.message().find("(" + errno_name(err) + ")") != std::string::npos;
        return e.error() == err && named ? 0 : 2;
    } catch (...) {
        return 2;
    }
    return 1;
}

std::string throw_out_of_descriptors(std::string_view /*request*/) {
    throw ResourceExhausted("/sys/bus/pci/devices", EMFILE);
}

}  // namespace

TEST_CASE("gap_from_errno: exhaustion is thrown, every other errno stays a gap") {
    for (const int err : {EMFILE, ENFILE, ENOMEM, ENOBUFS}) {
        CAPTURE(err);
        CHECK(throws_exhaustion([&] { (void)gap_from_errno("/sys/bus/pci/devices", err); }, err,
                                "/sys/bus/pci/devices: ") == 0);
    }
    // A single attribute's EIO or EINVAL, a missing file, a refusal: per-datum gaps as before.
    CHECK(gap_from_errno("/sys/x/vpd", EIO).reason == GapReason::error);
    CHECK(gap_from_errno("/sys/x/speed", EINVAL).reason == GapReason::error);
    CHECK(gap_from_errno("/opt/mellanox/doca", ENOENT).reason == GapReason::not_found);
    CHECK(gap_from_errno("/x", EACCES).reason == GapReason::permission_denied);
    // EAGAIN means "try again" at a read: only fork and posix_spawn call it exhaustion.
    CHECK(gap_from_errno("/x", EAGAIN).reason == GapReason::error);
    const Gap big = gap_from_errno("/tmp/out.json", EFBIG);
    CHECK(big.message == "/tmp/out.json: file too large (EFBIG: the file size limit)");
}

TEST_CASE("ResourceExhausted is no std::exception: probe handlers cannot absorb it") {
    bool absorbed = false;
    bool passed = false;
    try {
        try {
            throw ResourceExhausted("x", EMFILE);
        } catch (const std::exception&) {
            absorbed = true;
        }
    } catch (const ResourceExhausted&) {
        passed = true;
    }
    CHECK_FALSE(absorbed);
    CHECK(passed);
}

TEST_CASE("an isolated child's exhaustion is rethrown in the parent, not a gap") {
    CHECK(throws_exhaustion(
              [] {
                  (void)run_isolated(
                      []() -> std::string { throw ResourceExhausted("/dev/infiniband", EMFILE); },
                      Deadline(5s), "ibv_open_device");
              },
              EMFILE, "/dev/infiniband: Too many open files") == 0);
    IsolatedWorker worker;
    CHECK(
        throws_exhaustion(
            [&] { (void)worker.call(&throw_out_of_descriptors, "", Deadline(5s), "list devices"); },
            EMFILE, "/sys/bus/pci/devices: Too many open files") == 0);
}

TEST_CASE("dlopen out of descriptors is exhaustion, not a missing library") {
    // A real library this process has not loaded; with no descriptor free the loader cannot
    // open it (before: a gap, which the verbs probe reported as "libibverbs not usable").
    const std::string library = std::string(RDMI_TEST_FIXTURES_DIR) + "/ibverbs/libibverbs.so.1";
    REQUIRE(::access(library.c_str(), R_OK) == 0);
    CHECK(test::exit_status_in_child([&] {
              if (!leave_only_free_descriptors(0)) return 10;
              return throws_exhaustion([&] { (void)DynamicLibrary::open(library); }, EMFILE,
                                       library);
          }) == 0);
}

TEST_CASE("fork refused for want of processes is exhaustion (a tool, an isolated call)") {
    if (::geteuid() != 0) return;  // RLIMIT_NPROC needs another user to bind: root ignores it
    CHECK(
        test::exit_status_in_child([] {
            // nobody, allowed no process at all: every fork fails with EAGAIN.
            if (::setgid(65534) != 0 || ::setuid(65534) != 0) return 10;
            const rlimit none{0, 0};
            if (::setrlimit(RLIMIT_NPROC, &none) != 0) return 11;
            const int spawn =
                throws_exhaustion([] { (void)run_process({"/bin/true"}, Deadline(5s), 1024); },
                                  EAGAIN, "/bin/true: fork");
            const int fork = throws_exhaustion(
                [] { (void)run_isolated([] { return std::string("x"); }, Deadline(5s), "uname"); },
                EAGAIN, "uname: fork");
            return spawn * 10 + fork;
        }) == 0);
}

TEST_CASE("a private directory is removed with two free descriptors, however deep") {
    test::TempTree parent;
    auto dir = PrivateDir::create(parent.root());
    REQUIRE(dir.ok());
    // 40 levels, each with a file and a sibling directory: one descriptor per level would need
    // 40 free.
    std::string path = dir->path();
    for (int depth = 0; depth < 40; ++depth) {
        REQUIRE(::mkdir((path + "/side").c_str(), 0700) == 0);
        const int fd = ::open((path + "/f").c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
        REQUIRE(fd >= 0);
        ::close(fd);
        path += "/d";
        REQUIRE(::mkdir(path.c_str(), 0700) == 0);
    }
    // A directory left without permissions is made writable and emptied too.
    REQUIRE(::chmod((dir->path() + "/d/d").c_str(), 0) == 0);
    const std::string top = dir->path();
    CHECK(test::exit_status_in_child([&] {
              if (!leave_only_free_descriptors(2)) return 10;
              return remove_tree(top.c_str()) ? 0 : 1;
          }) == 0);
    struct stat st {};
    CHECK(::lstat(top.c_str(), &st) != 0);
}

}  // namespace rdmi
