// One tools/call running: a forked child of the server that runs the command's code path
// (cli::run) in its own process group, its stdout (the document) and stderr (its log) on pipes.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace rdmi::mcp {

/// A running call. The server polls its descriptors; it never blocks on one call.
class ToolCall {
  public:
    using Clock = std::chrono::steady_clock;

    /// Forks the child that runs `rdmi-probe <argv...>`; throws std::system_error when no
    /// process or pipe can be had.
    static ToolCall start(const std::vector<std::string>& argv);

    /// No call: runs nothing, holds nothing.
    ToolCall() = default;
    ToolCall(ToolCall&& other) noexcept;
    ToolCall& operator=(ToolCall&& other) noexcept;
    ToolCall(const ToolCall&) = delete;
    ToolCall& operator=(const ToolCall&) = delete;
    /// Kills the call's process group and reaps the child.
    ~ToolCall();

    [[nodiscard]] int stdout_fd() const { return out_fd_; }
    [[nodiscard]] int stderr_fd() const { return err_fd_; }
    /// Readable (poll) once the child has exited: a pidfd.
    [[nodiscard]] int exit_fd() const { return pid_fd_; }
    [[nodiscard]] pid_t pid() const { return pid_; }

    /// Makes room for a document of about `bytes` before it arrives (the size the tool's last
    /// one had), so that it is read into one buffer rather than copied through ever larger
    /// ones: while a forked call shares the server's memory, each page the server writes is a
    /// page fault.
    void expect_document(std::size_t bytes);
    /// Reads what stdout has now into the document (up to `cap` bytes; more sets overflowed()).
    /// False once the pipe is closed.
    bool read_stdout(std::size_t cap);
    /// Reads what stderr has now; complete lines are appended to `lines`. False once closed.
    bool read_stderr(std::vector<std::string>& lines);
    [[nodiscard]] bool overflowed() const { return overflowed_; }
    [[nodiscard]] const std::string& document() const { return document_; }

    /// Asks the call's process group to end (SIGTERM: the command kills its own children and
    /// removes its temporaries), then, when `hard`, ends it (SIGKILL).
    void stop(bool hard) noexcept;

    /// Once exit_fd() is readable: reaps the child, ends whatever its group left running, and
    /// returns its exit code (128+N when a signal N ended it).
    int reap();

  private:
    void close_all() noexcept;

    pid_t pid_ = -1;
    int pid_fd_ = -1;
    int out_fd_ = -1;
    int err_fd_ = -1;
    bool overflowed_ = false;
    bool reaped_ = false;
    std::string document_;
    std::string err_partial_;
};

}  // namespace rdmi::mcp
