// run_isolated: fork + pipe + poll. The child leaves with _exit so that no library destructor
// or atexit handler of the parent's state runs twice.
#include "process/isolated_call.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <string_view>

#include "core/exhaustion.hpp"

#include "os/child_groups.hpp"
#include "os/errno_gap.hpp"
#include "process/isolated_worker.hpp"

namespace rdmi {
namespace {

constexpr char kOk = 'O';
constexpr char kFailed = 'E';
// The child ran out of descriptors or memory: the parent rethrows it (exhaustion_from_wire).
constexpr char kExhausted = 'X';

void write_all(int fd, const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

[[noreturn]] void child_main(int out_fd, const std::function<std::string()>& work,
                             std::string_view what, const ChildContainment& containment) {
    // Vendor libraries print to stdout; stdout belongs to the JSON document. Stdin is the
    // probe's: a terminal there would take input typed by vendor code (TIOCSTI).
    const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    // Without /dev/null vendor output would reach the document: no vendor code runs then.
    if (null_fd < 0 || ::dup2(null_fd, STDIN_FILENO) < 0 || ::dup2(null_fd, STDOUT_FILENO) < 0) {
        const int err = errno;
        const std::string step = std::string(what) + ": open /dev/null";
        write_all(out_fd, is_exhaustion(err)
                              ? std::string(1, kExhausted) +
                                    exhaustion_to_wire(ResourceExhausted(step, err))
                              : std::string(1, kFailed) + step + ": " + std::strerror(err));
        ::_exit(0);
    }
    if (const ContainmentFailure failure = containment.apply(out_fd); failure.failed()) {
        // Out of descriptors or memory while containing: the run's want, not the call's.
        if (is_exhaustion(failure.error)) {
            write_all(out_fd, std::string(1, kExhausted) +
                                  exhaustion_to_wire(ResourceExhausted(
                                      std::string(what) + ": " + failure.step, failure.error)));
        } else {
            write_all(out_fd, std::string(1, kFailed) + ChildContainment::describe(failure));
        }
        ::_exit(0);
    }
    std::string message;
    // Made before the work: once memory has run out, building it could fail again.
    const std::string out_of_memory =
        std::string(1, kExhausted) + exhaustion_to_wire(ResourceExhausted(what, ENOMEM));
    try {
        message = std::string(1, kOk) + work();
    } catch (const ResourceExhausted& e) {
        message = std::string(1, kExhausted) + exhaustion_to_wire(e);
    } catch (const std::bad_alloc&) {
        write_all(out_fd, out_of_memory);
        ::_exit(0);
    } catch (const std::exception& e) {
        message = std::string(1, kFailed) + e.what();
    } catch (...) {
        message = std::string(1, kFailed) + "unknown exception";
    }
    write_all(out_fd, message);
    ::_exit(0);
}

}  // namespace

Result<std::string> run_isolated(const std::function<std::string()>& work, const Deadline& deadline,
                                 std::string_view what, const ContainmentRequest& containment) {
    std::array<int, 2> fds{-1, -1};
    if (::pipe2(fds.data(), O_CLOEXEC) != 0) return gap_from_errno(what, errno);
    const ChildContainment prepared = ChildContainment::prepare(
        containment.work, containment.writable_files, containment.writable_dirs);
    const pid_t pid = fork_isolated_child(fds[0]);
    if (pid == 0) child_main(fds[1], work, what, prepared);
    if (pid < 0) {
        const int err = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        // fork's EAGAIN is a process limit (RLIMIT_NPROC, pid_max), not "try again".
        if (err == EAGAIN) throw ResourceExhausted(std::string(what) + ": fork", err);
        return gap_from_errno(what, err);
    }
    ::close(fds[1]);
    std::string data;
    std::array<char, 16384>
        buf;  // NOLINT(cppcoreguidelines-pro-type-member-init): filled by the kernel
    bool timed_out = false;
    bool too_large = false;
    while (true) {
        const auto left = deadline.remaining();
        if (left.count() == 0) {
            timed_out = true;
            break;
        }
        pollfd pfd{fds[0], POLLIN, 0};
        const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) continue;  // re-check the deadline
        const ssize_t got = ::read(fds[0], buf.data(), buf.size());
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        data.append(buf.data(), static_cast<std::size_t>(got));
        if (data.size() > kMaxWorkerAnswer) {
            too_large = true;
            break;
        }
    }
    ::close(fds[0]);
    int status = 0;
    if (timed_out || too_large) {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
    } else {
        // Wait for the child without reaping it (its pid keeps the group id reserved), then end
        // whatever it left behind in its group.
        siginfo_t info{};
        while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 &&
               errno == EINTR) {
        }
        ::kill(-pid, SIGKILL);
    }
    if (!reap_within(pid, status, kKilledChildWaitMs)) timed_out = true;  // stuck in the kernel
    unregister_child_group(pid);
    if (too_large) {
        return make_gap(GapReason::error, std::string(what) + ": the child sent more than " +
                                              std::to_string(kMaxWorkerAnswer) +
                                              " bytes, more than a call may give");
    }
    if (timed_out) {
        return make_gap(GapReason::timeout,
                        std::string(what) + ": did not return before the deadline");
    }
    if (WIFSIGNALED(status)) {
        return make_gap(GapReason::error, std::string(what) + ": crashed with signal " +
                                              std::to_string(WTERMSIG(status)) + " (" +
                                              strsignal(WTERMSIG(status)) + ")");  // NOLINT
    }
    if (data.empty()) return make_gap(GapReason::error, std::string(what) + ": produced no result");
    // The child ran out of descriptors or memory: the run cannot go on, whatever it asked.
    if (data.front() == kExhausted) throw exhaustion_from_wire(std::string_view(data).substr(1));
    if (data.front() == kFailed)
        return make_gap(GapReason::error, std::string(what) + ": " + data.substr(1));
    return data.substr(1);
}

}  // namespace rdmi
