// Running an installed tool (doca_caps, dpacc) the safe way: live only, trusted path only,
// argument vector, deadline.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "context/context.hpp"
#include "process/process.hpp"

namespace rdmi {

/// A tool start_tool() started (its call deadline runs from the start), or the gap that kept it
/// from starting.
class StartedTool {
  public:
    StartedTool(std::string shown, Deadline deadline, Result<StartedProcess> process,
                const LiveAnswers* answers = nullptr)
        : shown_(std::move(shown)),
          deadline_(deadline),
          process_(std::move(process)),
          answers_(answers) {}

  private:
    friend Result<std::string> finish_tool(StartedTool& tool);
    std::string shown_;
    Deadline deadline_;
    Result<StartedProcess> process_;
    /// Where the answer passes (recorded by gather, replayed from a bundle); null when the tool
    /// was never meant to run (under a static --root).
    const LiveAnswers* answers_;
};

/// Starts the in-root tool `path` with `args` and returns at once, so that several tools (and a
/// library call in a child) run side by side; when a bundle is replayed nothing starts and
/// finish_tool() gives the captured answer. Gap not_applicable under --root, untrusted when
/// the path fails the trusted-library rule.
StartedTool start_tool(const ProbeContext& ctx, const std::string& path,
                       const std::vector<std::string>& args);

/// The started tool's stdout, or its gap: the start's, timeout past the call deadline, error for
/// a non-zero exit (with the first line of stderr).
Result<std::string> finish_tool(StartedTool& tool);

/// start_tool() and finish_tool() in one.
Result<std::string> run_tool(const ProbeContext& ctx, const std::string& path,
                             const std::vector<std::string>& args);

}  // namespace rdmi
