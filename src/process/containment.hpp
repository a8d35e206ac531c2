// Containment of the children that run vendor code or tools: no new privileges, only the
// capabilities the call needs and, where the kernel has Landlock, no file writes outside what
// the vendor call needs. If a trust rule ever lets planted code through, it still cannot act
// as root (docs/reference/containment.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "process/capabilities.hpp"

namespace rdmi {

/// How contained the run's children are.
enum class ContainmentState {
    full,     ///< no_new_privs, capabilities dropped, the system call filter, Landlock covering
              ///< every file write
    partial,  ///< no_new_privs and capabilities dropped; Landlock or the filter missing, old or
              ///< off
    none,     ///< no no_new_privs: an exec could regain what was dropped
    not_applicable,  ///< nothing is loaded or run (--root, a replayed bundle)
};

/// The stable JSON name ("full", "partial", "none", "not_applicable").
std::string_view to_string(ContainmentState state);

/// What the session asks for; set before the first child starts.
struct ContainmentSettings {
    /// False when nothing is loaded or run at all; `not_applicable_reason` says why.
    bool applicable = true;
    std::string not_applicable_reason;
    /// False with --no-landlock: the opt-out for a node where the ruleset proves too tight.
    bool landlock = true;
    /// The system call filter (process/syscall_filter.hpp); false with --no-syscall-filter, the
    /// opt-out for a node where a vendor call needs what it refuses (and in tests whose
    /// fixture tools set file modes).
    bool syscall_filter = true;
};

/// Replaces the process's settings (the default: applicable, Landlock on). Children started
/// afterwards follow them.
void configure_containment(const ContainmentSettings& settings);

/// The process's settings.
ContainmentSettings containment_settings();

/// What a contained child does; it decides the capabilities the child keeps.
enum class ContainedWork {
    library_calls,  ///< the worker: library versions, verbs and DOCA capability queries
    loopback,       ///< the DPA loopback: creates DPA, RDMA and memory objects, registers memory
    tool,           ///< an installed tool run for its --version
    /// This machine's librpm reading a private copy of the probed system's rpm database: the
    /// one library a --root run loads, so it is contained under --root too.
    package_database,
};

/// The capabilities a child doing `work` keeps (of those the probe holds).
CapabilityMask capabilities_kept(ContainedWork work);

/// What the run's children get, for the report.
struct ContainmentStatus {
    ContainmentState state = ContainmentState::not_applicable;
    /// Why it is not full (empty when full), one sentence each.
    std::vector<std::string> reasons;
    bool no_new_privs = false;
    /// The Landlock ABI the children enforce; 0 when they enforce none.
    int landlock_abi = 0;
    /// Capability names kept by each kind of child (empty lists when not applicable).
    std::vector<std::string> library_calls_capabilities;
    std::vector<std::string> loopback_capabilities;
    std::vector<std::string> tool_capabilities;
};

/// The status under the current settings and kernel (asks the kernel: two system calls).
ContainmentStatus containment_status();

/// The sentence a refusal (EPERM, EACCES) inside a contained child carries, so that it reads
/// as the containment's doing and never as a fact about the device; "" when the children are
/// not contained by Landlock or capabilities (not applicable).
std::string containment_refusal_note();

/// What a child needs to contain itself, prepared in the parent before the fork (the Landlock
/// ruleset is built there: the child then makes system calls only). Moving it moves the
/// ruleset descriptor.
class ChildContainment {
  public:
    /// For a child doing `work`; `writable_files` are files it must still be able to write
    /// (the loopback's --trace file, created by the parent); `writable_dirs` are directories
    /// it may also create and remove files in (the private copy of an rpm database, beside
    /// which SQLite makes its -wal and -shm files).
    static ChildContainment prepare(ContainedWork work,
                                    const std::vector<std::string>& writable_files = {},
                                    const std::vector<std::string>& writable_dirs = {});

    ChildContainment(ChildContainment&& other) noexcept;
    ChildContainment& operator=(ChildContainment&&) = delete;
    ChildContainment(const ChildContainment&) = delete;
    ChildContainment& operator=(const ChildContainment&) = delete;
    ~ChildContainment();

    /// In the forked child, before any vendor code runs or a tool is executed: every
    /// descriptor from 3 up but `keep_fd` closed (the child's channel to the probe; -1 for
    /// none), whatever the probe held or inherited: Landlock governs opens, never a write
    /// through a descriptor already open. Then no_new_privs, the capability drop, Landlock,
    /// and the system call filter (process/syscall_filter.hpp). Async-signal-safe. A failure means
    /// the child must not go on: it is reported, never run around.
    [[nodiscard]] ContainmentFailure apply(int keep_fd) const noexcept;

    /// "containment could not be applied: STEP: <strerror>", for a failure of apply() or of
    /// the preparation.
    static std::string describe(const ContainmentFailure& failure);

  private:
    ChildContainment() = default;
    bool applicable_ = false;
    bool no_new_privs_ = false;
    bool syscall_filter_ = false;
    CapabilityMask keep_ = 0;
    int ruleset_fd_ = -1;
    /// The ruleset could not be built although the kernel has Landlock: apply() says so.
    ContainmentFailure prepare_failure_{};
};

}  // namespace rdmi
