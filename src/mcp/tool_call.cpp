// The per-call child: the machinery that is process-wide in a command-line run (the watchdog that
// ends the process, the child process groups, the pending output file, the replay's private
// directory) stays per call because each call is its own process.
#include "mcp/tool_call.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <system_error>

#include "cli/app.hpp"
#include "json/document_layout.hpp"

namespace rdmi::mcp {
namespace {

/// A stderr line longer than this is cut: a log line, not a channel for data.
constexpr std::size_t kMaxLogLine = 4096;

/// How much lower than the server's a call's CPU priority is (nice(2) increment).
constexpr int kCallNiceness = 5;

[[noreturn]] void throw_errno(const char* what) {
    throw std::system_error(errno, std::generic_category(), what);
}

void close_fd(int& fd) noexcept {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

[[noreturn]] void run_child(const std::vector<std::string>& argv, int out, int err) {
    // Its own process group, so that a cancel ends the command and everything it started.
    ::setpgid(0, 0);
    // Below the server in CPU priority: while calls hold every core, the server's one thread
    // still gets one when a request arrives, so `ping` and cancels are answered at once.
    // Lowering one's own priority needs no privilege; where it fails the call runs as before.
    errno = 0;
    (void)::nice(kCallNiceness);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(2);
    // No other call's pipes, and not the server's stdin: each call holds only its own.
    ::syscall(SYS_close_range, 3U, ~0U, 0U);
    // The server ignores SIGPIPE for its own stdout and reads SIGTERM, SIGINT and SIGHUP from a
    // signalfd (they are blocked there): the command starts from the defaults and installs
    // what it needs.
    ::signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    std::vector<char*> args;
    static char program[] = "rdmi-probe";
    args.push_back(program);
    for (const auto& word : argv) args.push_back(const_cast<char*>(word.c_str()));
    args.push_back(nullptr);
    // The server makes the document compact whatever the command writes: written compact, it
    // is 40% shorter to write, to pipe and to read.
    json::set_streamed_layout(json::DocumentLayout::compact);
    const int code = cli::run(static_cast<int>(argv.size() + 1), args.data());
    std::fflush(stdout);  // NOLINT(cert-err33-c)
    std::fflush(stderr);  // NOLINT(cert-err33-c)
    ::_exit(code);
}

}  // namespace

ToolCall ToolCall::start(const std::vector<std::string>& argv) {
    std::array<int, 2> out{-1, -1};
    std::array<int, 2> err{-1, -1};
    if (::pipe2(out.data(), O_CLOEXEC) != 0) throw_errno("pipe2");
    if (::pipe2(err.data(), O_CLOEXEC) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        throw_errno("pipe2");
    }
    std::fflush(stdout);  // NOLINT(cert-err33-c): nothing buffered is written twice
    const pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
        throw_errno("fork");
    }
    if (pid == 0) run_child(argv, out[1], err[1]);
    // Also here: a signal to the group before the child's own setpgid would miss it.
    ::setpgid(pid, pid);
    ToolCall call;
    call.pid_ = pid;
    call.out_fd_ = out[0];
    call.err_fd_ = err[0];
    ::close(out[1]);
    ::close(err[1]);
    call.pid_fd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (call.pid_fd_ < 0) throw_errno("pidfd_open");
    for (int fd : {call.out_fd_, call.err_fd_}) ::fcntl(fd, F_SETFL, O_NONBLOCK);
    return call;
}

ToolCall::ToolCall(ToolCall&& other) noexcept
    : pid_(other.pid_),
      pid_fd_(other.pid_fd_),
      out_fd_(other.out_fd_),
      err_fd_(other.err_fd_),
      overflowed_(other.overflowed_),
      reaped_(other.reaped_),
      document_(std::move(other.document_)),
      err_partial_(std::move(other.err_partial_)) {
    other.pid_ = -1;
    other.pid_fd_ = other.out_fd_ = other.err_fd_ = -1;
}

ToolCall& ToolCall::operator=(ToolCall&& other) noexcept {
    if (this == &other) return *this;
    this->~ToolCall();
    new (this) ToolCall(std::move(other));
    return *this;
}

ToolCall::~ToolCall() {
    if (pid_ > 0 && !reaped_) {
        stop(true);
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    close_all();
}

void ToolCall::close_all() noexcept {
    close_fd(pid_fd_);
    close_fd(out_fd_);
    close_fd(err_fd_);
}

void ToolCall::expect_document(std::size_t bytes) {
    // A little over the last size: the next document is rarely smaller by much, and a few bytes
    // more (a longer time stamp, one more line of log) would otherwise double the buffer.
    document_.reserve(bytes + bytes / 16 + 4096);
}

bool ToolCall::read_stdout(std::size_t cap) {
    if (out_fd_ < 0) return false;
    // Not cleared first: read() fills what is used, and clearing 64 KiB of stack would touch
    // (and, after each fork, fault) every one of its pages.
    std::array<char, 65536> buffer;  // NOLINT(cppcoreguidelines-pro-type-member-init)
    while (true) {
        const auto n = ::read(out_fd_, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return true;
        if (n <= 0) {
            close_fd(out_fd_);
            return false;
        }
        const auto room = cap > document_.size() ? cap - document_.size() : 0;
        if (static_cast<std::size_t>(n) > room) {
            // Past the cap: what is held stays the cap; the rest is drained, not kept.
            document_.append(buffer.data(), room);
            overflowed_ = true;
            continue;
        }
        document_.append(buffer.data(), static_cast<std::size_t>(n));
    }
}

bool ToolCall::read_stderr(std::vector<std::string>& lines) {
    if (err_fd_ < 0) return false;
    std::array<char, 16384>
        buffer;  // NOLINT(cppcoreguidelines-pro-type-member-init): read fills it
    while (true) {
        const auto n = ::read(err_fd_, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return true;
        if (n <= 0) {
            if (!err_partial_.empty()) lines.push_back(std::move(err_partial_));
            err_partial_.clear();
            close_fd(err_fd_);
            return false;
        }
        for (auto i = 0; i < n; ++i) {
            const char c = buffer[static_cast<std::size_t>(i)];
            if (c == '\n') {
                lines.push_back(std::move(err_partial_));
                err_partial_.clear();
            } else if (err_partial_.size() < kMaxLogLine) {
                err_partial_ += c;
            }
        }
    }
}

void ToolCall::stop(bool hard) noexcept {
    if (pid_ <= 0 || reaped_) return;
    ::kill(-pid_, hard ? SIGKILL : SIGTERM);
}

int ToolCall::reap() {
    int status = 0;
    // The child is a zombie (its pidfd is readable), so its group id is still its own: what
    // the group still holds (a tool the command left running) ends with it.
    ::kill(-pid_, SIGKILL);
    while (::waitpid(pid_, &status, 0) < 0) {
        if (errno != EINTR) break;
    }
    reaped_ = true;
    close_fd(pid_fd_);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 2;
}

}  // namespace rdmi::mcp
