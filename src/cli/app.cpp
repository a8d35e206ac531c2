// CLI wiring (temporary minimal version while the subcommands are built).
#include "cli/app.hpp"

#include <CLI/CLI.hpp>

#include "build_info.hpp"

namespace rdmi::cli {

int run(int argc, char** argv) {
    CLI::App app{"DOCA RDMI environment and capability probe", build_info::kToolName};
    app.set_version_flag("--version", build_info::kVersion);
    CLI11_PARSE(app, argc, argv);
    return 0;
}

}  // namespace rdmi::cli
