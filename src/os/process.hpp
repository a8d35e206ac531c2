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

/// Runs `argv[0]` (an absolute path) with `argv`, never through a shell, with stdin from
/// /dev/null and an environment of only PATH=/usr/sbin:/usr/bin:/sbin:/bin and LC_ALL=C.
/// The command and everything it started are killed when `deadline` expires (Gap timeout).
/// Output beyond `max_output` bytes per stream is discarded.
Result<ProcessOutput> run_process(const std::vector<std::string>& argv, const Deadline& deadline,
                                  std::size_t max_output = 1U << 20U);

}  // namespace rdmi
