// Tests for Fs's path helpers, which every Fs and its callers share.
#include "os/fs.hpp"

#include <doctest/doctest.h>

namespace rdmi {

TEST_CASE("path helpers") {
    CHECK(join_path("/a/", "/b") == "/a/b");
    CHECK(join_path("/", "b") == "/b");
    CHECK(join_path("/a", "") == "/a");
    CHECK(base_name("/usr/lib/libx.so") == "libx.so");
    CHECK(base_name("/usr/lib/") == "lib");
    CHECK(dir_name("/usr/lib/libx.so") == "/usr/lib");
    CHECK(dir_name("/x") == "/");
    CHECK(dir_name("x") == ".");
}

TEST_CASE("a plain absolute path has no empty, '.' or '..' component and no trailing '/'") {
    CHECK(plain_absolute_path("/usr/lib/libx.so"));
    CHECK(plain_absolute_path("/a"));
    CHECK_FALSE(plain_absolute_path("/"));
    CHECK_FALSE(plain_absolute_path("usr/lib"));
    CHECK_FALSE(plain_absolute_path("/usr//lib"));
    CHECK_FALSE(plain_absolute_path("/usr/./lib"));
    CHECK_FALSE(plain_absolute_path("/usr/../lib"));
    CHECK_FALSE(plain_absolute_path("/usr/lib/"));
}

TEST_CASE("file types have stable names") {
    CHECK(to_string(FileType::regular) == "regular file");
    CHECK(to_string(FileType::fifo) == "FIFO");
    CHECK(to_string(FileType::symlink) == "symbolic link");
}

}  // namespace rdmi
