// ProbeContext's trust gate: the trusted-path rule (docs/safety.md), decided in
// one place for every load and every tool run.
#include "context/context.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <system_error>

#include "host/platform.hpp"
#include "loader/library_trust.hpp"

namespace rdmi {
namespace {

Result<std::string> live_trust_gate(const ProbeContext& ctx, const std::string& path, LoadKind kind,
                                    const char* verb);

// `verb` is what is refused ("loaded", "run"); the Gap's message is what the report shows.
Result<std::string> trust_gate(const ProbeContext& ctx, const std::string& path, LoadKind kind,
                               const char* verb) {
    // Under --root nothing is loaded or run, whatever the caller checked before.
    if (!ctx.live())
        return make_gap(GapReason::not_applicable, path + ": not " + verb + " under --root");
    const char* kind_name = kind == LoadKind::program   ? "program"
                            : kind == LoadKind::ibverbs ? "ibverbs"
                                                        : "library";
    // The decision rests on the live host's files and owners: a bundle replays it.
    return ctx.answers.answer(std::string("trust ") + kind_name + " " + path,
                              [&]() { return live_trust_gate(ctx, path, kind, verb); });
}

Result<std::string> host_trust_gate(const ProbeContext& ctx, const std::string& host, LoadKind kind,
                                    const char* verb);

Result<std::string> live_trust_gate(const ProbeContext& ctx, const std::string& path, LoadKind kind,
                                    const char* verb) {
    auto host = ctx.fs.host_path(path);
    if (!host) return host.gap();
    return host_trust_gate(ctx, *host, kind, verb);
}

Result<std::string> host_trust_gate(const ProbeContext& ctx, const std::string& host, LoadKind kind,
                                    const char* verb) {
    std::optional<Gap> gap = check_library_trust(host, ctx.trust_cache.get());
    if (!gap) {
        // run_process() gives a tool a clean environment: LD_LIBRARY_PATH does not reach it.
        const LoadEnvironment env = kind == LoadKind::program ? program_load_environment()
                                                              : current_load_environment(ctx.env);
        gap = check_load_closure(host, kind, env, ctx.trust_cache.get()).gap;
    }
    if (!gap) return host;
    if (!ctx.allow_untrusted_libs)
        return make_gap(GapReason::untrusted, gap->message + "; not " + verb);
    ctx.log.warn("{} untrusted {} because of --allow-untrusted-libs ({})",
                 kind == LoadKind::program ? "running" : "loading", host, gap->message);
    return host;
}

}  // namespace

std::string ProbeContext::root_machine() const {
    if (live()) return {};
    return host::root_machine_name(fs).value_or("");
}

Result<std::string> ProbeContext::loadable(const std::string& path, LoadKind kind) const {
    return trust_gate(*this, path, kind == LoadKind::program ? LoadKind::library : kind, "loaded");
}

Result<std::string> ProbeContext::host_library_loadable(const std::string& host_path) const {
    if (answers.replayed()) {
        return make_gap(GapReason::not_applicable,
                        host_path + ": not loaded when a bundle is replayed");
    }
    std::error_code error;
    if (!std::filesystem::is_regular_file(host_path, error))
        return make_gap(GapReason::not_found, host_path + ": no such library");
    return host_trust_gate(*this, host_path, LoadKind::library, "loaded");
}

Result<std::string> ProbeContext::runnable(const std::string& path) const {
    return trust_gate(*this, path, LoadKind::program, "run");
}

}  // namespace rdmi
