// run_process: fork + containment + execve, then poll with a deadline; the child gets its own
// process group so a timeout kills everything it started.
#include "process/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "core/exhaustion.hpp"
#include "os/child_groups.hpp"
#include "os/errno_gap.hpp"
#include "process/containment.hpp"

namespace rdmi {
namespace {

struct Pipe {
    std::array<int, 2> fd{-1, -1};
    ~Pipe() {
        for (int f : fd) {
            if (f >= 0) ::close(f);
        }
    }
    void close_end(int i) {
        if (fd[i] >= 0) ::close(fd[i]);
        fd[i] = -1;
    }
};

// A descriptor that becomes readable when the process exits; -1 where the kernel has none.
struct PidFd {
    explicit PidFd(pid_t pid) : fd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0))) {}
    PidFd(const PidFd&) = delete;
    PidFd& operator=(const PidFd&) = delete;
    ~PidFd() {
        if (fd >= 0) ::close(fd);
    }
    int fd;
};

void kill_and_reap(pid_t pid) {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    int status = 0;
    (void)reap_within(pid, status, kKilledChildWaitMs);  // not reaped: stuck in the kernel
    unregister_child_group(pid);
}

// The leader has exited (a zombie keeps its pid, so the group id cannot be reused yet): end
// whatever it left running in its group, then reap it.
int end_group_and_reap(pid_t pid) {
    ::kill(-pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    unregister_child_group(pid);
    return status;
}

// What a tool's child reports before exiting when its set-up or the exec fails.
struct ChildFailure {
    std::array<char, 48> step{};
    int error = 0;
};

// What the child of fork() needs, all prepared before the fork.
struct ChildExec {
    const char* program;
    char* const* argv;
    char* const* envp;
    int out_fd;
    int err_fd;
    int report_fd;
};

[[noreturn]] void report_and_exit(int report_fd, const char* step, int error) {
    ChildFailure failure{};
    for (std::size_t i = 0; i + 1 < failure.step.size() && step[i] != '\0'; ++i)
        failure.step[i] = step[i];
    failure.error = error;
    (void)!::write(report_fd, &failure, sizeof failure);
    ::_exit(127);
}

// In the child of fork(): what posix_spawn did (own process group, default signals, nothing
// blocked, stdin /dev/null, stdout and stderr the pipes), then the containment, then the exec.
// System calls only.
[[noreturn]] void exec_contained(const ChildExec& exec, const ChildContainment& containment) {
    ::setpgid(0, 0);
    struct sigaction defaults {};
    defaults.sa_handler = SIG_DFL;
    // The probe's handlers and what it ignores (SIGPIPE, SIGXFSZ: an ignored signal stays
    // ignored across exec) are its own, not the tool's.
    for_each_interrupt_signal([&defaults](int sig) { ::sigaction(sig, &defaults, nullptr); });
    for (const int sig : {SIGPIPE, SIGXFSZ}) ::sigaction(sig, &defaults, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    const int in = ::open("/dev/null", O_RDONLY);
    if (in < 0) report_and_exit(exec.report_fd, "open /dev/null", errno);
    if (::dup2(in, STDIN_FILENO) < 0 || ::dup2(exec.out_fd, STDOUT_FILENO) < 0 ||
        ::dup2(exec.err_fd, STDERR_FILENO) < 0) {
        report_and_exit(exec.report_fd, "dup2", errno);
    }
    if (in > STDERR_FILENO) ::close(in);
    if (const ContainmentFailure failure = containment.apply(exec.report_fd); failure.failed())
        report_and_exit(exec.report_fd, failure.step, failure.error);
    ::execve(exec.program, exec.argv, exec.envp);
    report_and_exit(exec.report_fd, "execve", errno);
}

// True and the failure when the child reported one; false once the exec closed the pipe.
bool read_child_failure(int fd, ChildFailure& failure) {
    std::size_t got = 0;
    auto* bytes = reinterpret_cast<char*>(&failure);
    while (got < sizeof failure) {
        const ssize_t n = ::read(fd, bytes + got, sizeof failure - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    failure.step.back() = '\0';
    return got == sizeof failure;
}

}  // namespace

StartedProcess::StartedProcess(StartedProcess&& other) noexcept
    : program_(std::move(other.program_)),
      pid_(std::exchange(other.pid_, -1)),
      out_fd_(std::exchange(other.out_fd_, -1)),
      err_fd_(std::exchange(other.err_fd_, -1)) {}

StartedProcess::~StartedProcess() {
    close_fds();
    if (pid_ > 0) kill_and_reap(pid_);
}

void StartedProcess::close_fds() {
    for (int* fd : {&out_fd_, &err_fd_}) {
        if (*fd >= 0) ::close(*fd);
        *fd = -1;
    }
}

Result<StartedProcess> start_process(const std::vector<std::string>& argv) {
    if (argv.empty() || argv[0].empty() || argv[0].front() != '/') {
        return make_gap(GapReason::error, "run_process: the program must be an absolute path");
    }
    const std::string& program = argv[0];
    Pipe out;
    Pipe err;
    Pipe report;  // the child's set-up or exec failure; closed unwritten by a successful exec
    if (::pipe2(out.fd.data(), O_CLOEXEC) != 0 || ::pipe2(err.fd.data(), O_CLOEXEC) != 0 ||
        ::pipe2(report.fd.data(), O_CLOEXEC) != 0) {
        return gap_from_errno(program, errno);
    }
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // A fixed, minimal environment: nothing the caller's environment holds can steer the tool.
    std::array<char*, 3> envp{const_cast<char*>("PATH=/usr/sbin:/usr/bin:/sbin:/bin"),
                              const_cast<char*>("LC_ALL=C"), nullptr};
    // Prepared here: after the fork the child makes system calls only (this process may have
    // threads, and a lock one of them held would stay held in the child).
    const ChildContainment containment = ChildContainment::prepare(ContainedWork::tool);
    pid_t pid = 0;
    int fork_error = 0;
    {
        // A signal handled between the fork and the registration would miss this group.
        const InterruptBlock block;
        pid = ::fork();
        fork_error = errno;
        if (pid == 0) {
            exec_contained(ChildExec{program.c_str(), args.data(), envp.data(), out.fd[1],
                                     err.fd[1], report.fd[1]},
                           containment);
        }
        if (pid > 0) {
            ::setpgid(pid, pid);  // both sides set it: no race with the child's first steps
            register_child_group(pid);
        }
    }
    // fork's EAGAIN is a process limit (RLIMIT_NPROC, pid_max), not "try again".
    if (pid < 0 && fork_error == EAGAIN) throw ResourceExhausted(program + ": fork", EAGAIN);
    if (pid < 0) return gap_from_errno(program, fork_error);
    out.close_end(1);
    err.close_end(1);
    report.close_end(1);
    StartedProcess started(program, pid, std::exchange(out.fd[0], -1),
                           std::exchange(err.fd[0], -1));
    ChildFailure failure{};
    if (read_child_failure(report.fd[0], failure)) {
        // The StartedProcess reaps the child (which has exited, or is about to) as it goes.
        if (std::string_view(failure.step.data()) == "execve")
            return gap_from_errno(program, failure.error);
        // The child's set-up ran out of descriptors or memory (open /dev/null, the
        // containment): the run's want, not the tool's (before: "containment could not be
        // applied", and the tool's datum a gap).
        throw_if_exhausted(program + ": " + failure.step.data(), failure.error);
        return make_gap(
            GapReason::error,
            program + ": " + ChildContainment::describe({failure.step.data(), failure.error}));
    }
    return started;
}

Result<ProcessOutput> finish_process(StartedProcess& process, const Deadline& deadline,
                                     std::size_t max_output) {
    const std::string& program = process.program_;
    const pid_t pid = process.pid_;
    if (pid <= 0) return make_gap(GapReason::error, program + ": already collected");
    // From here on this function reaps the command on every path.
    process.pid_ = -1;

    ProcessOutput result;
    std::array<pollfd, 2> fds{pollfd{process.out_fd_, POLLIN, 0},
                              pollfd{process.err_fd_, POLLIN, 0}};
    std::array<std::string*, 2> sinks{&result.stdout_text, &result.stderr_text};
    int open_streams = 2;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init): filled by the kernel
    std::array<char, 16384> buf;
    while (open_streams > 0) {
        const auto left = deadline.remaining();
        if (left.count() == 0) {
            process.close_fds();
            kill_and_reap(pid);
            return make_gap(GapReason::timeout, program + ": did not finish before the deadline");
        }
        const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
        if (ready < 0 && errno != EINTR) {
            process.close_fds();
            kill_and_reap(pid);
            return gap_from_errno(program, errno);
        }
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
            const ssize_t got = ::read(fds[i].fd, buf.data(), buf.size());
            if (got > 0) {
                std::string& sink = *sinks[i];
                const std::size_t room = max_output > sink.size() ? max_output - sink.size() : 0;
                sink.append(buf.data(), std::min(room, static_cast<std::size_t>(got)));
            } else if (got == 0 || errno != EINTR) {
                fds[i].fd = -1;
                --open_streams;
            }
        }
    }
    process.close_fds();
    // Both streams closed; the process is exiting (or detached its output). Still bounded. A
    // process closes its files before it becomes waitable: a pidfd (Linux 5.3) says when it has
    // exited, without a poll every millisecond that costs up to one per tool.
    const PidFd exit_fd(pid);
    int status = 0;
    while (true) {
        siginfo_t info{};
        const int done =
            ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
        if (done == 0 && info.si_pid == pid) {
            status = end_group_and_reap(pid);
            break;
        }
        if (done < 0 && errno != EINTR) {
            const int wait_errno = errno;
            kill_and_reap(pid);
            return gap_from_errno(program, wait_errno);
        }
        if (deadline.expired()) {
            kill_and_reap(pid);
            return make_gap(GapReason::timeout, program + ": did not exit before the deadline");
        }
        if (exit_fd.fd >= 0) {
            pollfd exited{exit_fd.fd, POLLIN, 0};
            ::poll(&exited, 1,
                   static_cast<int>(std::max<long long>(deadline.remaining().count(), 1)));
        } else {
            ::usleep(1000);
        }
    }
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
}

Result<ProcessOutput> run_process(const std::vector<std::string>& argv, const Deadline& deadline,
                                  std::size_t max_output) {
    auto started = start_process(argv);
    if (!started) return started.gap();
    return finish_process(started.value(), deadline, max_output);
}

}  // namespace rdmi
