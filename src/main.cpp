// rdmi-probe entry point: hands the command line to the CLI and returns its exit code.
#include "cli/app.hpp"

int main(int argc, char** argv) {
    return rdmi::cli::run(argc, argv);
}
