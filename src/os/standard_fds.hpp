// Keeps descriptors 0, 1 and 2 taken for the whole run, so that no file, pipe or socket the
// program opens later can land on them.
#pragma once

namespace rdmi {

/// For each of stdin, stdout and stderr that was closed when the program started, opens
/// /dev/null in the direction that cannot be used (stdin write-only, stdout and stderr
/// read-only): the descriptor number is taken, and a read or write on it still fails with
/// EBADF as it would have on the closed one. Call before anything else opens a descriptor.
void hold_standard_fds() noexcept;

}  // namespace rdmi
