// Test code that ends its process (the watchdog, the SIGBUS handler) runs in a forked child whose
// output the test reads.
#pragma once

#include <functional>
#include <string>

namespace rdmi::test {

/// How a child ended and what it wrote.
struct ChildOutput {
    int status = -1;  ///< as waitpid(2) gives it
    std::string out;
    std::string err;
    double seconds = 0;  ///< wall time from the fork to the end of the child's output
};

/// Runs `body` in a forked child with its stdout and stderr on pipes, and waits for it; the
/// child _exits 0 when `body` returns.
ChildOutput run_in_child(const std::function<void()>& body);

/// Runs `body` in a forked child (so limits it sets stay there) and returns the status it
/// _exits with; a child that does not exit normally fails the test.
int exit_status_in_child(const std::function<int()>& body);

}  // namespace rdmi::test
