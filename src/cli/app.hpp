// The command-line interface: global options, subcommand table, exit codes.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace rdmi::cli {

struct GlobalOptions;

/// Declares the global options, as the option model states them, on the top-level parser.
void add_global_options(CLI::App& app, GlobalOptions& opts);

/// The never-crash boundary: runs `body` and turns anything it throws into a one-line message
/// on stderr (and, when `json`, a valid error document on stdout) with exit code 2. Out of
/// memory is reported without allocating.
int guarded(const std::function<int()>& body, bool json);

/// Parses the command line, runs the chosen subcommand, and returns the process exit code.
/// Never throws: every error becomes a one-line message and a documented exit code.
int run(int argc, char** argv);

}  // namespace rdmi::cli
