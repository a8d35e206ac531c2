// The environment probe: loader variables in this process's environment that change what an
// application started from it would load (LD_PRELOAD, LD_LIBRARY_PATH).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "core/finding_catalog.hpp"
#include "json/json_common.hpp"

namespace rdmi {

namespace finding {

inline constexpr FindingInfo env_ld_preload{
    "env-ld-preload", "report (environment probe)",
    "LD_PRELOAD is not set: nothing is loaded into every application before DOCA.",
    "Unset LD_PRELOAD unless the preload is intended (a profiler, for instance).", Purposes::run};
inline constexpr FindingInfo env_ld_library_path{
    "env-ld-library-path", "report (environment probe)",
    "Information: LD_LIBRARY_PATH, which the loader searches before ld.so.cache.", "",
    Purposes::run};

}  // namespace finding

/// The environment probe's entries, in catalog order (its row lists them).
inline constexpr const FindingInfo* kEnvironmentFindings[] = {&finding::env_ld_preload,
                                                              &finding::env_ld_library_path};

/// One loader variable as found in the environment.
struct EnvVariable {
    std::string name;                  ///< "LD_PRELOAD"
    std::optional<std::string> value;  ///< nullopt when unset
};

/// What the environment probe saw, and its checks.
struct EnvironmentFacts {
    bool applies = true;  ///< false under --root: this process's environment is not the root's
    std::vector<EnvVariable> variables;  ///< LD_PRELOAD, LD_LIBRARY_PATH, in that order
    /// env-ld-preload (fail when set: a preloaded object is injected into every application),
    /// env-ld-library-path (info: it reorders the loader's search); both info under --root.
    std::vector<Check> checks;
};

/// Reads LD_PRELOAD and LD_LIBRARY_PATH through ctx.env (provenance kind "env").
EnvironmentFacts probe_environment(const ProbeContext& ctx);

/// The report's environment section: whether the variables apply, and each with its source.
json::Json environment_json(const EnvironmentFacts& facts);

}  // namespace rdmi
