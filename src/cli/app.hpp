// The command-line interface: global options, subcommand table, exit codes.
#pragma once

namespace rdmi::cli {

/// Parses the command line, runs the chosen subcommand, and returns the process exit code.
/// Never throws: every error becomes a one-line message and a documented exit code.
int run(int argc, char** argv);

}  // namespace rdmi::cli
