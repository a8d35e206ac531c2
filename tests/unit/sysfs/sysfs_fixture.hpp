// Test helpers for the sysfs layer: the generated fixture roots and an unprivileged scope.
#pragma once

#include <string>
#include <string_view>

#include "os/rooted_fs.hpp"

namespace rdmi::test {

/// Host path of a pre-generated fixture root (tests/fixtures/sysfs/make_sysfs_root.py).
std::string sysfs_fixture_dir(std::string_view scenario);

/// A RootedFs over a pre-generated fixture root; fails the test when it cannot be opened.
RootedFs sysfs_fixture(std::string_view scenario);

/// Runs the fixture generator with `args`; returns its exit status.
int run_fixture_script(const std::string& args);

/// While alive, file access is checked as uid/gid 65534 (setfsuid/setfsgid), so mode-000
/// files are really unreadable even when the tests run as root. No-op when not root.
class AsUnprivileged {
  public:
    AsUnprivileged();
    ~AsUnprivileged();
    AsUnprivileged(const AsUnprivileged&) = delete;
    AsUnprivileged& operator=(const AsUnprivileged&) = delete;

  private:
    bool switched_ = false;
};

}  // namespace rdmi::test
