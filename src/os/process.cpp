// run_process: posix_spawn + poll with a deadline; the child gets its own process group so a
// timeout kills everything it started.
#include "os/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include "core/exhaustion.hpp"
#include "os/child_groups.hpp"
#include "os/errno_gap.hpp"

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
    if (::pipe2(out.fd.data(), O_CLOEXEC) != 0 || ::pipe2(err.fd.data(), O_CLOEXEC) != 0) {
        return gap_from_errno(program, errno);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t defaults;
    sigemptyset(&defaults);
    // The probe's handlers and what it ignores (SIGPIPE, SIGXFSZ: an ignored signal stays
    // ignored across exec) are its own, not the tool's.
    for (int sig : kInterruptSignals) sigaddset(&defaults, sig);
    for (int sig : {SIGPIPE, SIGXFSZ}) sigaddset(&defaults, sig);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // A fixed, minimal environment: nothing the caller's environment holds can steer the tool.
    std::array<char*, 3> envp{const_cast<char*>("PATH=/usr/sbin:/usr/bin:/sbin:/bin"),
                              const_cast<char*>("LC_ALL=C"), nullptr};
    pid_t pid = 0;
    int rc = 0;
    {
        // A signal handled between the spawn and the registration would miss this group.
        const InterruptBlock block;
        rc = ::posix_spawn(&pid, program.c_str(), &actions, &attr, args.data(), envp.data());
        if (rc == 0) register_child_group(pid);
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    // posix_spawn's EAGAIN is a process limit (RLIMIT_NPROC, pid_max), not "try again".
    if (rc == EAGAIN) throw ResourceExhausted(program + ": posix_spawn", rc);
    if (rc != 0) return gap_from_errno(program, rc);
    out.close_end(1);
    err.close_end(1);
    StartedProcess started(program, pid, std::exchange(out.fd[0], -1),
                           std::exchange(err.fd[0], -1));
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
