// refuse_untrusted_load: the trust rule of design "Trusted libraries only", in one place.
#include "probes/load_trust.hpp"

#include <spdlog/spdlog.h>

#include "os/library_trust.hpp"

namespace rdmi {

std::optional<Gap> refuse_untrusted_load(const ProbeContext& ctx, const std::string& path,
                                         LoadKind kind) {
    std::optional<Gap> gap = check_library_trust(path);
    if (!gap) {
        // run_process() gives a tool a clean environment: LD_LIBRARY_PATH does not reach it.
        const LoadEnvironment env = kind == LoadKind::program ? program_load_environment()
                                                              : current_load_environment(ctx.env);
        gap = check_load_closure(path, kind, env).gap;
    }
    if (!gap) return std::nullopt;
    if (!ctx.allow_untrusted_libs) return gap;
    ctx.log.warn("{} untrusted {} because of --allow-untrusted-libs ({})",
                 kind == LoadKind::program ? "running" : "loading", path, gap->message);
    return std::nullopt;
}

}  // namespace rdmi
