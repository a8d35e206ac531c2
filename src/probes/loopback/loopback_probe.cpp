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
            std::string candidate = dir;
            candidate += '/';
            candidate += stem;
            candidate += suffix;
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

// Why the loopback cannot run on this context at all: it loads DOCA and opens a device.
std::optional<std::string> not_on_this_context(const ProbeContext& ctx) {
    if (!ctx.live()) {
        return "--root is set: the loopback loads DOCA and opens a device, which happens only on "
               "the live system";
    }
    // A bundle's captured answers say what a live run saw; an experiment on the device is not
    // an answer, and a hostile bundle's "trusted" must never lead to loading anything here.
    if (ctx.answers.captured()) return "not captured in the bundle: a replay runs no loopback";
    return std::nullopt;
}

// The library directories of the DOCA modules found, each once, in the stack's order.
std::vector<std::string> library_dirs(const InstallFacts& install) {
    std::vector<std::string> dirs;
    for (const auto& module : install.stack) {
        if (module.found && !module.libdir.empty() &&
            std::find(dirs.begin(), dirs.end(), module.libdir) == dirs.end())
            dirs.push_back(module.libdir);
    }
    return dirs;
}

// The locate-libraries step: the DOCA libraries the child loads, each one the context may load,
// into `paths`; or why the loopback is skipped.
std::optional<std::string> locate_libraries(const ProbeContext& ctx, const InstallFacts& install,
                                            const std::vector<std::string>& dirs,
                                            std::vector<std::string>& paths) {
    if (dirs.empty()) {
        return "DOCA is not installed: no doca-common, doca-dpa or doca-rdmi pkg-config module "
               "under " +
               install.prefix.value.value_or("?");
    }
    for (const auto& library : kLibraries) {
        auto found = find_library(ctx.fs, dirs, library.stem);
        if (!found) {
            if (library.required) {
                return std::string("DOCA is incomplete: ") + library.stem + ".so not found in " +
                       dirs.front();
            }
            continue;
        }
        auto loadable = ctx.loadable(*found);
        if (!loadable) return loadable.gap().message + " (--allow-untrusted-libs overrides)";
        paths.push_back(*loadable);
    }
    return std::nullopt;
}

// The locate-plugin step: why the DPA plugin cannot be loaded, or nothing.
std::optional<std::string> locate_plugin(const ProbeContext& ctx, const std::string& plugin) {
    if (plugin.empty()) {
        return "no DPA plugin: rdmi-probe-dpa.so is built only where DOCA and dpacc are found "
               "(RDMI_PROBE_DPA); none beside the binary and no --plugin given";
    }
    if (auto info = ctx.fs.stat(plugin); !info) return "no DPA plugin: " + info.gap().message;
    if (auto loadable = ctx.loadable(plugin); !loadable)
        return loadable.gap().message + " (--allow-untrusted-libs overrides)";
    return std::nullopt;
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
    if (auto why = not_on_this_context(ctx))
        return stop("locate-libraries", StepOutcome::skip, std::move(*why));

    auto start = std::chrono::steady_clock::now();
    const InstallFacts none;
    const InstallFacts& install = facts ? *facts : none;
    const std::vector<std::string> dirs = library_dirs(install);
    std::vector<std::string> paths;
    if (auto why = locate_libraries(ctx, install, dirs, paths))
        return stop("locate-libraries", StepOutcome::skip, std::move(*why), ms_since(start));
    verdict.libraries = paths;
    verdict.steps.push_back(
        LoopbackStep{"locate-libraries",
                     0,
                     StepOutcome::pass,
                     ms_since(start),
                     std::to_string(paths.size()) + " DOCA libraries in " + dirs.front(),
                     {}});

    start = std::chrono::steady_clock::now();
    if (auto why = locate_plugin(ctx, options.plugin_path))
        return stop("locate-plugin", StepOutcome::skip, std::move(*why), ms_since(start));
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
