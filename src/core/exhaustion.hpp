// Running out of a resource the run itself needs (descriptors, memory, processes, kernel
// buffers) is no fact about the probed system: it must never read as "absent", "skip" or a
// failed check. It is thrown as ResourceExhausted, which only the run's boundary catches.
#pragma once

#include <string>
#include <string_view>

namespace rdmi {

/// The run ran out of something it needs. Deliberately not a std::exception: the handlers that
/// turn a probe's failure into a gap, a probe error or a skip catch std::exception, so none of
/// them can absorb this; cli::guarded() ends the run with it (exit 2, the error document).
class ResourceExhausted {
  public:
    /// `what`: the file, call or object that could not be had; `err`: the errno value.
    ResourceExhausted(std::string_view what, int err);

    /// One a child process reported (its message and errno, as they crossed the pipe).
    static ResourceExhausted relayed(std::string message, int err);

    /// "<what>: Too many open files (EMFILE)": one line, naming the errno.
    [[nodiscard]] const std::string& message() const { return message_; }
    /// The errno value.
    [[nodiscard]] int error() const { return error_; }

  private:
    ResourceExhausted() = default;
    std::string message_;
    int error_ = 0;
};

/// True for the errno values that mean a resource of this process or of the system ran out,
/// whatever call returned them: EMFILE, ENFILE (descriptors), ENOMEM (memory, also mappings
/// and address space), ENOBUFS (kernel buffers). EAGAIN is one only where a process or thread
/// was being created (fork, posix_spawn): elsewhere it means "try again" (a non-blocking read),
/// so callers that create one check it themselves.
bool is_exhaustion(int err);

/// Throws ResourceExhausted(what, err) when is_exhaustion(err); returns otherwise.
void throw_if_exhausted(std::string_view what, int err);

/// The wire form of an exhaustion in a child: "<errno> <message>" (what
/// exhaustion_from_wire() reads back in the parent).
std::string exhaustion_to_wire(const ResourceExhausted& e);
/// The ResourceExhausted that exhaustion_to_wire() wrote; ENOMEM when the text is garbled.
ResourceExhausted exhaustion_from_wire(std::string_view text);

/// The symbolic name of an errno value ("EMFILE"), or "errno N" for one this table lacks.
std::string errno_name(int err);

}  // namespace rdmi
