// Test helpers for the sysfs layer: the generated fixture roots and an unprivileged scope.
#pragma once

#include <string>
#include <string_view>

#include "os/rooted_fs.hpp"
#include "support/as_unprivileged.hpp"  // the unprivileged scope the sysfs tests use
#include "support/memory_fs.hpp"

namespace rdmi::test {

/// Host path of a pre-generated fixture root (tests/fixtures/sysfs/make_sysfs_root.py).
std::string sysfs_fixture_dir(std::string_view scenario);

/// A RootedFs over a pre-generated fixture root; fails the test when it cannot be opened.
RootedFs sysfs_fixture(std::string_view scenario);

/// An in-memory copy of a pre-generated fixture root, for a test that changes it: each call
/// gives a fresh copy of a tree read from disk once per process.
MemoryFs sysfs_fixture_in_memory(std::string_view scenario);

/// Runs the fixture generator with `args`; returns its exit status.
int run_fixture_script(const std::string& args);

}  // namespace rdmi::test
