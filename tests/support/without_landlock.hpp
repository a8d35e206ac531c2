// WithoutLandlock: for tests whose fixture tools write files to tell the test what they did.
#pragma once

#include "process/containment.hpp"

namespace rdmi::test {

/// While alive, the children started by run_process() and the isolated calls run without
/// Landlock (as with --no-landlock) and without the system call filter; the settings before it
/// come back at its end. For tests of
/// other things whose fixture tools write marker files (Landlock would refuse those writes).
class WithoutLandlock {
  public:
    WithoutLandlock() : saved_(containment_settings()) {
        ContainmentSettings settings = saved_;
        settings.landlock = false;
        settings.syscall_filter = false;  // the tools may also set modes (shutil.copy2)
        configure_containment(settings);
    }
    ~WithoutLandlock() { configure_containment(saved_); }
    WithoutLandlock(const WithoutLandlock&) = delete;
    WithoutLandlock& operator=(const WithoutLandlock&) = delete;

  private:
    ContainmentSettings saved_;
};

}  // namespace rdmi::test
