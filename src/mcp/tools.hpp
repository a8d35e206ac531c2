// The MCP tools: one per read-only rdmi-probe command, what each takes and returns, and how a
// call's structured arguments become that command's argument vector.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace rdmi::mcp {

/// What the server's own flags allow a call to do.
struct CallPolicy {
    /// --allow-root DIR: a `root` must be `/` or under one of these (resolved) directories.
    std::vector<std::string> allowed_roots;
    bool allow_loopback = false;  ///< --allow-loopback: the loopback tool may run
    /// --allow-untrusted-libs: every call runs with it (a call cannot ask for it: the option
    /// model makes it the server's policy, not a tool argument)
    bool allow_untrusted_libs = false;
    /// Where inline inputs (a policy, a document to diff) are written for the command to read.
    std::string scratch_dir;
};

/// One tool.
struct ToolSpec {
    std::string_view name;
    std::string_view title;
    std::string_view description;
    /// The embedded schema of the document it returns; "" when any object (schema).
    std::string_view output_schema;
    bool read_only = true;  ///< annotations.readOnlyHint
    /// May load vendor libraries or run tools (live probes, loopback): its listing says what
    /// the server's --allow-untrusted-libs decides.
    bool loads = false;
};

/// Every tool, in listing order.
const std::vector<ToolSpec>& tool_specs();

/// The tool called `name`, or nullptr.
const ToolSpec* find_tool(std::string_view name);

/// The tool's inputSchema: a JSON Schema object of its arguments.
nlohmann::ordered_json input_schema(const ToolSpec& tool);

/// A call, ready to run: the command line (after the program name) and the files written for
/// it (removed when the call ends).
struct PreparedCall {
    std::vector<std::string> argv;
    std::vector<std::string> scratch_files;
    double timeout_s = 10.0;  ///< the command's --timeout
};

/// The command line for `tool` called with `arguments` (an object), or a Gap whose message is
/// what the agent is told (an argument of the wrong type, a relative path, a root or an
/// option the server's flags do not allow). `call_number` names the scratch files.
Result<PreparedCall> prepare_call(const ToolSpec& tool, const nlohmann::json& arguments,
                                  const CallPolicy& policy, unsigned long call_number);

}  // namespace rdmi::mcp
