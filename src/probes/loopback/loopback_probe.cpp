// probe_loopback: the static level-0 findings (live root, DOCA libraries, plugin, trust) here;
// everything that loads DOCA or touches the device in the isolated child.
#include <spdlog/spdlog.h>

#include <chrono>

#include "probes/install/install.hpp"
#include "probes/loopback/loopback_run.hpp"

namespace rdmi {
namespace {

struct Library {
    const char* stem;
    bool required;
};

/// libdoca_rdma is not one of the RDMI stack's four modules, so it is looked for beside them.
constexpr Library kLibraries[] = {{"libdoca_common", true},
                                  {"libdoca_dpa", true},
                                  {"libdoca_rdma", true},
                                  {"libdoca_verbs", false},
                                  {"libdoca_rdmi", false}};

/// lib<x>.so, then the runtime sonames (.so.3, .so.2), then any lib<x>.so.*
/// (docs/reference/install-layout.md#library-names).
std::optional<std::string> find_library(const Fs& fs, const std::vector<std::string>& dirs,
                                        const std::string& stem) {
    for (const auto& dir : dirs) {
        for (const char* suffix : {".so", ".so.3", ".so.2"}) {
            const std::string candidate = dir + "/" + stem + suffix;
            if (fs.exists(candidate)) return candidate;
        }
        if (auto entries = fs.list_dir(dir); entries.ok()) {
            for (const auto& entry : *entries) {
                if (entry.name.rfind(stem + ".so.", 0) == 0) return dir + "/" + entry.name;
            }
        }
    }
    return std::nullopt;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace

LoopbackVerdict probe_loopback(const ProbeContext& ctx, const std::optional<InstallFacts>& facts,
                               const LoopbackOptions& options) {
    LoopbackVerdict verdict;
    verdict.level_requested = options.level;
    verdict.plugin_path = options.plugin_path;
    auto stop = [&verdict](const char* id, StepOutcome outcome, std::string message,
                           double ms = 0) {
        verdict.steps.push_back(LoopbackStep{id, 0, outcome, ms, std::move(message), {}});
        loopback::finish_verdict(verdict);
        return verdict;
    };
    if (!ctx.live()) {
        return stop("locate-libraries", StepOutcome::skip,
                    "--root is set: the loopback loads DOCA and opens a device, which happens only "
                    "on the live system");
    }
    // A bundle's captured answers say what a live run saw; an experiment on the device is not
    // an answer, and a hostile bundle's "trusted" must never lead to loading anything here.
    if (ctx.answers.captured()) {
        return stop("locate-libraries", StepOutcome::skip,
                    "not captured in the bundle: a replay runs no loopback");
    }

    auto start = std::chrono::steady_clock::now();
    const InstallFacts none;
    const InstallFacts& install = facts ? *facts : none;
    std::vector<std::string> dirs;
    for (const auto& module : install.stack) {
        if (module.found && !module.libdir.empty() &&
            std::find(dirs.begin(), dirs.end(), module.libdir) == dirs.end())
            dirs.push_back(module.libdir);
    }
    if (dirs.empty()) {
        return stop(
            "locate-libraries", StepOutcome::skip,
            "DOCA is not installed: no doca-common, doca-dpa or doca-rdmi pkg-config module "
            "under " +
                install.prefix.value.value_or("?"),
            ms_since(start));
    }
    std::vector<std::string> paths;
    for (const auto& library : kLibraries) {
        auto found = find_library(ctx.fs, dirs, library.stem);
        if (!found) {
            if (library.required) {
                return stop("locate-libraries", StepOutcome::skip,
                            std::string("DOCA is incomplete: ") + library.stem +
                                ".so not found in " + dirs.front(),
                            ms_since(start));
            }
            continue;
        }
        auto loadable = ctx.loadable(*found);
        if (!loadable) {
            return stop("locate-libraries", StepOutcome::skip,
                        loadable.gap().message + " (--allow-untrusted-libs overrides)",
                        ms_since(start));
        }
        paths.push_back(*loadable);
    }
    verdict.libraries = paths;
    verdict.steps.push_back(
        LoopbackStep{"locate-libraries",
                     0,
                     StepOutcome::pass,
                     ms_since(start),
                     std::to_string(paths.size()) + " DOCA libraries in " + dirs.front(),
                     {}});

    start = std::chrono::steady_clock::now();
    if (options.plugin_path.empty()) {
        return stop("locate-plugin", StepOutcome::skip,
                    "no DPA plugin: rdmi-probe-dpa.so is built only where DOCA and dpacc are found "
                    "(RDMI_PROBE_DPA); none beside the binary and no --plugin given",
                    ms_since(start));
    }
    if (auto info = ctx.fs.stat(options.plugin_path); !info) {
        return stop("locate-plugin", StepOutcome::skip, "no DPA plugin: " + info.gap().message,
                    ms_since(start));
    }
    if (auto loadable = ctx.loadable(options.plugin_path); !loadable) {
        return stop("locate-plugin", StepOutcome::skip,
                    loadable.gap().message + " (--allow-untrusted-libs overrides)",
                    ms_since(start));
    }
    verdict.steps.push_back(LoopbackStep{
        "locate-plugin", 0, StepOutcome::pass, ms_since(start), options.plugin_path, {}});
    LoopbackVerdict result =
        loopback::run_loopback_isolated(paths, options, ctx.deadline, verdict, ctx.progress);
    if (!options.trace_path.empty() && result.result != Status::pass) {
        // Whatever ended the run (an error, a hang, a crash), the calls before it are on disk.
        result.notes.push_back(
            "trace: every DOCA call of this run, with its arguments, return "
            "value, time and thread, is in " +
            options.trace_path + " (JSON lines)");
    }
    return result;
}

}  // namespace rdmi
