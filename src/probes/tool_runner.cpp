// run_tool: the one place the probes start external programs.
#include "probes/tool_runner.hpp"

#include <spdlog/spdlog.h>

#include "os/process.hpp"

namespace rdmi {
namespace {
Result<std::string> run_live(const ProbeContext& ctx, const std::string& path,
                             const std::vector<std::string>& args, const std::string& shown);
}  // namespace

Result<std::string> run_tool(const ProbeContext& ctx, const std::string& path,
                             const std::vector<std::string>& args) {
    std::string shown = path;
    for (const auto& a : args) shown += " " + a;
    if (!ctx.live()) return make_gap(GapReason::not_applicable, shown + ": not run under --root");
    return ctx.answers.answer("run " + shown, [&]() { return run_live(ctx, path, args, shown); });
}

}  // namespace rdmi

namespace rdmi {
namespace {

Result<std::string> run_live(const ProbeContext& ctx, const std::string& path,
                             const std::vector<std::string>& args, const std::string& shown) {
    // Running a planted executable is as dangerous as loading a planted library.
    auto runnable = ctx.runnable(path);
    if (!runnable) return runnable.gap();
    std::vector<std::string> argv{*runnable};
    argv.insert(argv.end(), args.begin(), args.end());
    ctx.log.debug("running {}", shown);
    auto out = run_process(argv, ctx.call_deadline());
    if (!out) return out.gap();
    if (out->exit_code != 0) {
        std::string first = out->stderr_text.substr(0, out->stderr_text.find('\n'));
        std::string status = out->signal != 0 ? "killed by signal " + std::to_string(out->signal)
                                              : "exit code " + std::to_string(out->exit_code);
        return make_gap(GapReason::error,
                        shown + ": " + status + (first.empty() ? "" : ": " + first));
    }
    return std::move(out->stdout_text);
}

}  // namespace
}  // namespace rdmi
