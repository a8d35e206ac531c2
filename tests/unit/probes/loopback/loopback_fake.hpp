// Test helpers: the fake DOCA library's control functions, and running the real orchestration
// through it.
#pragma once

#include <chrono>
#include <string>

#include "loader/dynamic_library.hpp"
#include "probes/loopback/loopback_run.hpp"

namespace rdmi::test {

/// The fake DOCA (tests/fixtures/doca/lifecycle), opened once; the orchestration's dlopen of the
/// same path shares its state.
class FakeDoca {
  public:
    /// The process-wide instance.
    static FakeDoca& get();
    /// Frees every fake object, clears counters and the fault plan.
    void reset();
    /// One setting of the fault plan ("fail", "doca_dpa_start#1=6").
    void set(const char* key, const char* value);
    /// Objects created and not destroyed.
    [[nodiscard]] long live() const;
    /// Ordering or argument mistakes the fake saw.
    [[nodiscard]] long violations() const;
    [[nodiscard]] std::string last_violation() const;
    /// "doca_devinfo_create_list#1,doca_devinfo_get_pci_addr_str#1,..."
    [[nodiscard]] std::string call_log() const;

  private:
    FakeDoca();
    DynamicLibrary library_;
};

/// Options for a run through the fake plugin.
LoopbackOptions fake_options(int level = kLoopbackMaxLevel);

/// run_loopback_from_files in this process, with the fake library and a wait deadline.
LoopbackVerdict run_fake(const LoopbackOptions& options,
                         std::chrono::milliseconds wait = std::chrono::seconds(5));

/// The step with `id`, or nullptr.
const LoopbackStep* find_step(const LoopbackVerdict& verdict, std::string_view id);

}  // namespace rdmi::test
