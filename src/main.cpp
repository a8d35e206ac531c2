// rdmi-probe entry point: hands the command line to the CLI (or, for `mcp`, to the MCP server,
// which runs each call through the CLI in a child) and returns its exit code.
#include <string_view>

#include "cli/app.hpp"
#include "mcp/server.hpp"

int main(int argc, char** argv) {
    if (argc > 1 && std::string_view(argv[1]) == "mcp") return rdmi::mcp::run_server(argc, argv);
    return rdmi::cli::run(argc, argv);
}
