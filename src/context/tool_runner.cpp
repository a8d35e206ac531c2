// run_tool: the one place the probes start external programs.
#include "context/tool_runner.hpp"

#include <spdlog/spdlog.h>

namespace rdmi {

StartedTool start_tool(const ProbeContext& ctx, const std::string& path,
                       const std::vector<std::string>& args) {
    std::string shown = path;
    for (const auto& a : args) shown += " " + a;
    const Deadline deadline = ctx.call_deadline();
    if (!ctx.live()) {
        return {shown, deadline,
                make_gap(GapReason::not_applicable, shown + ": not run under --root")};
    }
    if (ctx.answers.captured()) {
        return {shown, deadline, make_gap(GapReason::not_applicable, shown + ": replayed"),
                &ctx.answers};
    }
    // Running a planted executable is as dangerous as loading a planted library.
    auto runnable = ctx.runnable(path);
    if (!runnable) return {shown, deadline, runnable.gap(), &ctx.answers};
    std::vector<std::string> argv{*runnable};
    argv.insert(argv.end(), args.begin(), args.end());
    ctx.log.debug("running {}", shown);
    return {shown, deadline, start_process(argv), &ctx.answers};
}

Result<std::string> finish_tool(StartedTool& tool) {
    if (tool.answers_ == nullptr) return tool.process_.gap();
    // A replayed answer never calls the lambda: the captured one comes back.
    return tool.answers_->answer("run " + tool.shown_, [&tool]() -> Result<std::string> {
        if (!tool.process_) return tool.process_.gap();
        auto out = finish_process(tool.process_.value(), tool.deadline_);
        if (!out) return out.gap();
        if (out->exit_code != 0) {
            std::string first = out->stderr_text.substr(0, out->stderr_text.find('\n'));
            std::string status = out->signal != 0
                                     ? "killed by signal " + std::to_string(out->signal)
                                     : "exit code " + std::to_string(out->exit_code);
            return make_gap(GapReason::error,
                            tool.shown_ + ": " + status + (first.empty() ? "" : ": " + first));
        }
        return std::move(out).value().stdout_text;
    });
}

Result<std::string> run_tool(const ProbeContext& ctx, const std::string& path,
                             const std::vector<std::string>& args) {
    auto tool = start_tool(ctx, path, args);
    return finish_tool(tool);
}

}  // namespace rdmi
