// RootedFs under a low descriptor limit: the directory cache gives way to the files being read.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

#include "os/dir_fd_cache.hpp"
#include "os/rooted_fs.hpp"
#include "support/child_output.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

// More directories than 40 descriptors, fewer than the cache's capacity (a cyclic walk over
// more than it holds would evict every directory before its second use).
constexpr int kDirs = 44;
static_assert(kDirs < DirFdCache::kCapacity);

void fill(const test::TempTree& tree) {
    for (int i = 0; i < kDirs; ++i) tree.write("/d" + std::to_string(i) + "/f", "x");
}

// The lowest limit that leaves exactly `spare` descriptors free (open ones may leave gaps).
rlim_t limit_leaving(int spare) {
    int fd = 0;
    for (int free = 0;; ++fd) {
        if (::fcntl(fd, F_GETFD) < 0 && ++free == spare) break;
    }
    return static_cast<rlim_t>(fd) + 1;
}

void set_soft_limit(rlim_t soft) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) _exit(70);
    limit.rlim_cur = soft;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) _exit(71);
}

// Reads every directory's file three times (the second use of a directory caches it); the
// number of reads that failed.
int read_all(const RootedFs& fs) {
    int failures = 0;
    for (int pass = 0; pass < 3; ++pass) {
        for (int i = 0; i < kDirs; ++i) {
            const std::string path = "/d" + std::to_string(i) + "/f";
            if (fs.read_file(path).value_or("") != "x") ++failures;
            if (fs.dir_files("/d" + std::to_string(i))->read_file(path, 10).value_or("") != "x")
                ++failures;
        }
    }
    return failures;
}

}  // namespace

TEST_CASE("the directory cache takes at most a quarter of the descriptor limit") {
    CHECK(test::exit_status_in_child([] {
              set_soft_limit(40);
              const DirFdCache small;
              set_soft_limit(3);
              const DirFdCache none;
              return small.capacity() == 10 && none.capacity() == 0 ? 0 : 1;
          }) == 0);
    CHECK(DirFdCache().capacity() <= DirFdCache::kCapacity);
}

TEST_CASE("under ulimit -n 40 every file is read, in both resolutions") {
    test::TempTree tree;
    fill(tree);
    for (auto resolution : {RootedFs::Resolution::kernel, RootedFs::Resolution::userspace}) {
        CAPTURE(static_cast<int>(resolution));
        CHECK(test::exit_status_in_child([&] {
                  set_soft_limit(limit_leaving(40));
                  auto fs = RootedFs::open(tree.root(), resolution);
                  return fs.ok() ? std::min(read_all(*fs), 100) : 101;
              }) == 0);
    }
}

TEST_CASE("out of descriptors, the directory cache gives its own back and the read is retried") {
    test::TempTree tree;
    fill(tree);
    CHECK(test::exit_status_in_child([&] {
              // The cache is sized under the usual limit and filled; then the limit drops to
              // leave two descriptors free, and a read of a directory's file needs three (the
              // directory, the file's O_PATH descriptor, the file opened to read).
              auto fs = RootedFs::open(tree.root());
              if (!fs.ok() || read_all(*fs) != 0) return 100;
              set_soft_limit(limit_leaving(2));
              return std::min(read_all(*fs), 99);
          }) == 0);
}

}  // namespace rdmi
