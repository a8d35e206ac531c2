// Report: everything one run of the probes collected, as plain data for the emitters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "contract/version_matrix.hpp"
#include "core/check.hpp"
#include "probes/devices.hpp"
#include "probes/environment.hpp"
#include "probes/install.hpp"
#include "probes/symbols.hpp"

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

/// The collected data of one run.
struct Report {
    RunInfo run;
    std::optional<InstallFacts> install;
    std::optional<DevicesFacts> devices;
    /// The doca-rdmi symbol audit; nullopt when the module or its library is absent.
    std::optional<Result<SymbolsFacts>> symbols;
    std::optional<contract::VersionMatrixFacts> version_matrix;
    /// Loader variables in this process's environment (LD_PRELOAD, LD_LIBRARY_PATH).
    std::optional<EnvironmentFacts> environment;
    std::vector<ProbeError> probe_errors;
    std::vector<Check> checks;  ///< every probe's checks, in probe order
};

}  // namespace rdmi
