// The run's descriptor limit: the soft RLIMIT_NOFILE raised to the hard one at start, so that a
// low default (ulimit -n 1024, or less) costs nothing; what is left after that is exhaustion.
#pragma once

#include <sys/resource.h>

namespace rdmi {

/// Raises the soft RLIMIT_NOFILE to the hard limit (to 2^20, the kernel's default nr_open,
/// when the hard limit is unlimited) and remembers the soft limit it found. Returns the soft
/// limit in force afterwards. A limit the kernel refuses stays as it was: the run then has
/// what it was given, and running out of it ends the run (ResourceExhausted), never a verdict.
rlim_t raise_open_file_limit() noexcept;

/// In a forked child that runs other code (a vendor library): the soft limit the program
/// started with, so that the child sees what it would have without the probe in between.
/// Async-signal-safe; does nothing when raise_open_file_limit() changed nothing.
void restore_open_file_limit_in_child() noexcept;

/// bash's `ulimit -t N` sets the soft RLIMIT_CPU and the hard one alike; reaching both at once,
/// the kernel sends SIGKILL (the hard limit is checked first), never SIGXCPU, and nothing is
/// cleaned up: children, the --output temporary, a replay's private directory stay. With equal
/// limits of 2 s or more the soft one is lowered by a second, so that SIGXCPU ends the run
/// first, as SIGTERM does. A limit of 1 s leaves no room (soft 0 would fire at once).
void leave_room_below_cpu_limit() noexcept;

}  // namespace rdmi
