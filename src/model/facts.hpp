// The facts model: everything one run of the probes collected, as plain data. Every emitter
// (report text and JSON, the contract documents, the gate's outputs) reads only this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "probes/devices.hpp"
#include "probes/doca_caps.hpp"
#include "probes/environment.hpp"
#include "probes/install.hpp"
#include "probes/loopback.hpp"
#include "probes/pcie_link.hpp"
#include "probes/samples.hpp"
#include "probes/symbols.hpp"
#include "probes/system.hpp"
#include "probes/verbs.hpp"
#include "probes/version_matrix.hpp"

namespace rdmi {

/// Facts about the run itself.
struct RunInfo {
    std::string root = "/";
    bool live = true;
    std::string generated_at;  ///< ISO-8601 UTC
    double duration_ms = 0;
    double timeout_s = 0;
};

/// A probe that stopped with an unexpected error; the others still ran.
struct ProbeError {
    std::string probe;
    std::string message;
};

/// The collected facts of one run. A probe that did not run (not asked for, or its input was
/// missing) leaves its field empty.
struct Facts {
    RunInfo run;
    std::optional<InstallFacts> install;
    /// The sysfs inventory, platform and host classification.
    std::optional<SystemFacts> system;
    std::optional<VerbsFacts> verbs;
    std::optional<DocaCapsFacts> doca_caps;
    /// The sysfs, verbs and DOCA views joined per function, with the device checks.
    std::optional<DevicesFacts> devices;
    /// The symbol audit: of doca-rdmi for the report (nullopt when the module or its library is
    /// absent), or what the gate asked for.
    std::optional<Result<SymbolsFacts>> symbols;
    std::optional<VersionMatrixFacts> version_matrix;
    /// Loader variables in this process's environment (LD_PRELOAD, LD_LIBRARY_PATH).
    std::optional<EnvironmentFacts> environment;
    /// The samples directories of the public DOCA libraries.
    std::optional<SamplesFacts> samples;
    std::optional<LoopbackVerdict> loopback;
    /// Each PF's trained PCIe link against what card and slot can reach.
    std::optional<PcieLinkFacts> pcie_link;
    std::vector<ProbeError> probe_errors;  ///< in the order the probes ran
    std::uint32_t collected = 0;           ///< one bit per probe that ran (see registry.hpp)
};

}  // namespace rdmi
