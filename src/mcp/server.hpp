// `rdmi-probe mcp`: a Model Context Protocol server on stdin/stdout.
#pragma once

#include <cstddef>

#include "mcp/tools.hpp"

namespace rdmi::mcp {

/// What the server's command line decided.
struct ServerOptions {
    CallPolicy policy;
    /// A document larger than this is refused with the reason, not sent (--max-result-bytes).
    std::size_t max_result_bytes = std::size_t{8} << 20U;
    /// Calls running at once, never more than the CPUs the server may use (--max-calls); more
    /// wait in a queue of 1024, past which a call is answered with an error result.
    std::size_t max_calls = 4;
};

/// Serves one client on `in_fd` (newline-delimited JSON-RPC 2.0) and `out_fd` until `in_fd`
/// ends and every call has ended. Returns the process exit code (0; 2 when `out_fd` breaks).
int serve(int in_fd, int out_fd, const ServerOptions& options);

/// `rdmi-probe mcp [--allow-root DIR]... [--allow-loopback] [--allow-untrusted-libs]
/// [--max-result-bytes N] [--max-calls N]`: argv[1] is "mcp". Never throws.
int run_server(int argc, char** argv);

}  // namespace rdmi::mcp
