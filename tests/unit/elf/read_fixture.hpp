// Test helper: the bytes of a host file, read through RootedFs like production code does.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "os/rooted_fs.hpp"

namespace rdmi::test {

/// Whole contents of a host file (up to 256 MiB); fails the test when unreadable.
inline std::string read_host_file(const std::string& path) {
    auto fs = RootedFs::open("/");
    REQUIRE(fs.ok());
    auto bytes = fs->read_file(path, std::size_t{256} << 20U);
    REQUIRE_MESSAGE(bytes.ok(), path << ": " << (bytes.ok() ? "" : bytes.gap().message));
    return std::move(bytes).value();
}

}  // namespace rdmi::test
