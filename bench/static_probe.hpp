// The probe set-up every benchmark times: the seams the CLI gives a probe under --root DIR (a
// static root: nothing is loaded, no child runs), so that all the benches time the same run.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>

#include "context/context.hpp"
#include "model/registry.hpp"

namespace bench {

/// A context over the static root `fs`: no --doca-prefix, no untrusted libraries, the run and
/// each external call bounded as given (the defaults are the benches' usual 60 s and 10 s).
inline rdmi::ProbeContext static_probe_context(
    const rdmi::Fs& fs, const rdmi::Env& env, spdlog::logger& log,
    std::chrono::seconds run_bound = std::chrono::seconds(60),
    std::chrono::seconds call_bound = std::chrono::seconds(10)) {
    return {fs, env, log, rdmi::Deadline(run_bound), call_bound, std::nullopt, false};
}

/// The devices probe as `report --root` runs it (sysfs scan, platform, host kind, summary,
/// checks); the number of PCI functions it found, the unit the benches report per.
inline std::size_t probe_devices(const rdmi::ProbeContext& ctx) {
    rdmi::Facts facts;
    rdmi::collect(ctx, {rdmi::ProbeId::devices}, facts);
    return facts.devices->inventory.functions.size();
}

}  // namespace bench
