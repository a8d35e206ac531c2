// Tests for the fixture generator's command line (it is used by other test suites too).
#include <doctest/doctest.h>

#include <filesystem>

#include "support/temp_tree.hpp"
#include "sysfs/devices.hpp"
#include "sysfs_fixture.hpp"

namespace rdmi::sysfs {

TEST_CASE("make_sysfs_root.py builds a scenario, refuses foreign dirs, replaces its own") {
    test::TempTree tree;
    const std::string dir = tree.host("/root");
    CHECK(test::run_fixture_script("--list") == 0);
    CHECK(test::run_fixture_script("no-such-scenario " + dir) != 0);
    REQUIRE(test::run_fixture_script("cx6dx " + dir) == 0);
    auto fs = RootedFs::open(dir);
    REQUIRE(fs.ok());
    CHECK(scan_devices(*fs).functions.size() == 2);
    CHECK(test::run_fixture_script("cx6dx " + dir) != 0);  // not empty, no --force
    CHECK(test::run_fixture_script("--force cx7-vfs " + dir) == 0);
    // --force replaced the directory; a RootedFs pins the one it opened, so open the new one.
    fs = RootedFs::open(dir);
    REQUIRE(fs.ok());
    CHECK(scan_devices(*fs).functions.size() == 5);
    tree.write("/foreign/file", "x");
    CHECK(test::run_fixture_script("--force cx6dx " + tree.host("/foreign")) != 0);
    CHECK(std::filesystem::exists(tree.host("/foreign/file")));
}

}  // namespace rdmi::sysfs
