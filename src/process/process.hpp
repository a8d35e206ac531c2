// Running an external command safely: argument vector, cleaned environment, deadline.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "core/result.hpp"

namespace rdmi {

/// What a finished command produced.
struct ProcessOutput {
    int exit_code = -1;  ///< exit status, or -1 when killed by a signal
    int signal = 0;      ///< the signal that ended it, 0 if none
    std::string stdout_text;
    std::string stderr_text;
};

class StartedProcess;
Result<StartedProcess> start_process(const std::vector<std::string>& argv);
Result<ProcessOutput> finish_process(StartedProcess& process, const Deadline& deadline,
                                     std::size_t max_output);

/// A command start_process() started and finish_process() has not collected yet. Moving it
/// moves the ownership; one destroyed uncollected kills the command's group and reaps it.
class StartedProcess {
  public:
    StartedProcess(StartedProcess&& other) noexcept;
    StartedProcess& operator=(StartedProcess&& other) = delete;
    StartedProcess(const StartedProcess&) = delete;
    StartedProcess& operator=(const StartedProcess&) = delete;
    ~StartedProcess();

  private:
    friend Result<StartedProcess> start_process(const std::vector<std::string>& argv);
    friend Result<ProcessOutput> finish_process(StartedProcess& process, const Deadline& deadline,
                                                std::size_t max_output);
    StartedProcess(std::string program, int pid, int out_fd, int err_fd)
        : program_(std::move(program)), pid_(pid), out_fd_(out_fd), err_fd_(err_fd) {}
    void close_fds();
    std::string program_;
    int pid_ = -1;
    int out_fd_ = -1;
    int err_fd_ = -1;
};

/// Starts `argv[0]` (an absolute path) with `argv`, never through a shell, with stdin from
/// /dev/null and an environment of only PATH=/usr/sbin:/usr/bin:/sbin:/bin and LC_ALL=C, in its
/// own process group, contained (process/containment.hpp, ContainedWork::tool) before the exec: a
/// Gap, and nothing run, when the containment cannot be applied. Several may run at once: each
/// writes into its own pipes, and output that does not fit a pipe waits there until
/// finish_process() reads it.
Result<StartedProcess> start_process(const std::vector<std::string>& argv);

/// Collects a started command's output and exit status. The command and everything it started
/// are killed when `deadline` expires (Gap timeout). Output beyond `max_output` bytes per stream
/// is discarded. Collects once: a second call is an error.
Result<ProcessOutput> finish_process(StartedProcess& process, const Deadline& deadline,
                                     std::size_t max_output = std::size_t{1} << 20U);

/// start_process() and finish_process() in one.
Result<ProcessOutput> run_process(const std::vector<std::string>& argv, const Deadline& deadline,
                                  std::size_t max_output = 1U << 20U);

}  // namespace rdmi
