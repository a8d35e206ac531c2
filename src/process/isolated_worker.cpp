// IsolatedWorker: fork once, then requests and answers over a socket pair. The child leaves
// with _exit so that no library destructor or atexit handler of the parent's state runs twice.
//
// On the wire, a request is the task's address and the request's length (two uint64_t) and the
// request bytes; an answer is a status byte ('O' value, 'E' exception message, 'X' exhaustion),
// its length and its bytes.
#include "process/isolated_worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string_view>

#include "core/exhaustion.hpp"

#include "os/child_groups.hpp"
#include "os/errno_gap.hpp"
#include "process/containment.hpp"

namespace rdmi {
namespace {

constexpr char kAnswerValue = 'O';
constexpr char kAnswerException = 'E';
// The worker ran out of descriptors or memory: the probe rethrows it (exhaustion_from_wire).
constexpr char kAnswerExhausted = 'X';
constexpr std::size_t kHeader = 2 * sizeof(std::uint64_t);
constexpr std::size_t kAnswerHeader = 1 + sizeof(std::uint64_t);

// Blocking, in the child: all of `size` bytes, or false at end of file or on an error.
bool read_exact(int fd, char* into, std::size_t size) {
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(fd, into + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

void write_exact(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) ::_exit(1);  // the probe is gone
        data.remove_prefix(static_cast<std::size_t>(n));
    }
}

[[noreturn]] void worker_main(int fd, const ChildContainment& containment) {
    // Vendor libraries print to stdout; stdout belongs to the JSON document. Stdin is the
    // probe's: a terminal there would take input typed by vendor code (TIOCSTI).
    const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    // Without /dev/null vendor output would reach the document: such a worker runs nothing.
    ContainmentFailure failure{};
    if (null_fd < 0 || ::dup2(null_fd, STDIN_FILENO) < 0 || ::dup2(null_fd, STDOUT_FILENO) < 0)
        failure = {"open /dev/null", errno};
    // Contained before the first request: no vendor code runs in this process uncontained. A
    // child that cannot be contained answers every call with why, and runs none of them.
    if (!failure.failed()) failure = containment.apply(fd);
    const std::string refusal = failure.failed() ? ChildContainment::describe(failure) : "";
    // Out of descriptors or memory while setting up: the run's want, answered as exhaustion.
    const bool exhausted = failure.failed() && is_exhaustion(failure.error);
    // Made before any task: once memory has run out, building it could fail again.
    std::string out_of_memory(kAnswerHeader, '\0');
    out_of_memory.append(exhaustion_to_wire(ResourceExhausted("the isolated worker", ENOMEM)));
    out_of_memory[0] = kAnswerExhausted;
    const std::uint64_t out_of_memory_size = out_of_memory.size() - kAnswerHeader;
    std::memcpy(out_of_memory.data() + 1, &out_of_memory_size, sizeof out_of_memory_size);
    while (true) {
        std::array<std::uint64_t, 2> header{};
        // End of file: the probe has finished with this worker.
        if (!read_exact(fd, reinterpret_cast<char*>(header.data()), kHeader)) ::_exit(0);
        std::string request(header[1], '\0');
        if (!read_exact(fd, request.data(), request.size())) ::_exit(1);
        // NOLINTNEXTLINE(performance-no-int-to-ptr): the probe sent one of its own functions
        const auto task = reinterpret_cast<WorkerTask>(static_cast<std::uintptr_t>(header[0]));
        std::string answer(kAnswerHeader, '\0');
        try {
            if (exhausted)
                throw ResourceExhausted(std::string("the isolated worker: ") + failure.step,
                                        failure.error);
            if (!refusal.empty()) throw std::runtime_error(refusal);
            answer.append(task(request));
            answer[0] = kAnswerValue;
        } catch (const ResourceExhausted& e) {
            answer.resize(kAnswerHeader);
            answer.append(exhaustion_to_wire(e));
            answer[0] = kAnswerExhausted;
        } catch (const std::bad_alloc&) {
            write_exact(fd, out_of_memory);
            continue;
        } catch (const std::exception& e) {
            answer.resize(kAnswerHeader);
            answer.append(e.what());
            answer[0] = kAnswerException;
        } catch (...) {
            answer.resize(kAnswerHeader);
            answer.append("unknown exception");
            answer[0] = kAnswerException;
        }
        const std::uint64_t size = answer.size() - kAnswerHeader;
        std::memcpy(answer.data() + 1, &size, sizeof size);
        write_exact(fd, answer);
    }
}

// Waits (bounded by `deadline`) until `fd` is ready for `events`; false at the deadline.
bool wait_ready(int fd, short events, const Deadline& deadline) {
    while (true) {
        const auto left = deadline.remaining();
        if (left.count() == 0) return false;
        pollfd pfd{fd, events, 0};
        const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
        if (ready > 0) return true;
        if (ready < 0 && errno != EINTR) return true;  // the read or write says what is wrong
    }
}

}  // namespace

IsolatedWorker::~IsolatedWorker() {
    end();
}

Result<bool> IsolatedWorker::start(std::string_view what) {
    std::array<int, 2> fds{-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds.data()) != 0)
        return gap_from_errno(what, errno);
    const ChildContainment containment = ChildContainment::prepare(
        containment_.work, containment_.writable_files, containment_.writable_dirs);
    const pid_t pid = fork_isolated_child(fds[0]);
    if (pid == 0) worker_main(fds[1], containment);
    ::close(fds[1]);
    if (pid < 0) {
        const int err = errno;
        ::close(fds[0]);
        // fork's EAGAIN is a process limit (RLIMIT_NPROC, pid_max), not "try again".
        if (err == EAGAIN) throw ResourceExhausted(std::string(what) + ": fork", err);
        return gap_from_errno(what, err);
    }
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    pid_ = pid;
    socket_ = fds[0];
    used_ = false;
    ++started_;
    return true;
}

void IsolatedWorker::release() {
    // No socket: no child, or one already released (killed once is enough).
    if (socket_ < 0) return;
    // Its answer would have come from this child: a later call's fresh child has none.
    if (in_flight_) {
        held_.emplace_back(
            in_flight_->id,
            make_gap(GapReason::error,
                     in_flight_->what + ": the worker was ended before it answered"));
        in_flight_.reset();
    }
    if (pid_ > 0) {
        // Whatever the child or a vendor library left in its group ends with it. The child stays
        // unreaped until end(): its pid, and so its group id, cannot be reused meanwhile.
        // Killed before its socket closes: closed first, the child could read the end of its
        // requests and run its own exit path meanwhile (code of a vendor's atexit included).
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
    }
    ::close(socket_);
    socket_ = -1;
}

void IsolatedWorker::end() {
    release();
    if (pid_ <= 0) return;
    int status = 0;
    (void)reap_within(pid_, status, kKilledChildWaitMs);  // not reaped: stuck in the kernel
    unregister_child_group(pid_);
    pid_ = -1;
}

// The child closed its end before answering: reap it and say how it ended.
Gap IsolatedWorker::ended_gap(std::string_view what) {
    ::close(socket_);
    socket_ = -1;
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    ::kill(-pid_, SIGKILL);  // the group's leftovers; the reaped leader's id may not be reused yet
    unregister_child_group(pid_);
    pid_ = -1;
    if (WIFSIGNALED(status)) {
        return make_gap(GapReason::error, std::string(what) + ": crashed with signal " +
                                              std::to_string(WTERMSIG(status)) + " (" +
                                              strsignal(WTERMSIG(status)) + ")");  // NOLINT
    }
    return make_gap(GapReason::error, std::string(what) + ": produced no result");
}

Result<std::string> IsolatedWorker::call(WorkerTask task, std::string_view request,
                                         const Deadline& deadline, std::string_view what,
                                         Child child) {
    return receive(send(task, request, deadline, what, child));
}

IsolatedWorker::Sent IsolatedWorker::send(WorkerTask task, std::string_view request,
                                          const Deadline& deadline, std::string_view what,
                                          Child child) {
    const Sent sent{next_id_++};
    hold_in_flight();
    if (child == Child::fresh && used_) end();
    if (socket_ < 0) {
        end();  // a released child is reaped before the next one starts
        auto started = start(what);
        if (!started) {
            held_.emplace_back(sent.id, started.gap());
            return sent;
        }
    }
    if (auto failed = write_request(task, request, deadline, what)) {
        held_.emplace_back(sent.id, std::move(*failed));
        return sent;
    }
    in_flight_ = InFlight{sent.id, deadline, std::string(what)};
    return sent;
}

void IsolatedWorker::prestart(std::string_view what) {
    if (socket_ >= 0) return;
    end();  // a released child is reaped before the next one starts
    (void)start(what);
}

Result<std::string> IsolatedWorker::receive(Sent sent) {
    for (auto it = held_.begin(); it != held_.end(); ++it) {
        if (it->first != sent.id) continue;
        Result<std::string> answer = std::move(it->second);
        held_.erase(it);
        return answer;
    }
    if (!in_flight_ || in_flight_->id != sent.id)
        return make_gap(GapReason::error, "the isolated worker has no call awaiting this answer");
    const InFlight call = std::move(*in_flight_);
    in_flight_.reset();
    return read_answer(call.deadline, call.what);
}

void IsolatedWorker::hold_in_flight() {
    if (!in_flight_) return;
    const InFlight call = std::move(*in_flight_);
    in_flight_.reset();
    held_.emplace_back(call.id, read_answer(call.deadline, call.what));
}

std::optional<Gap> IsolatedWorker::write_request(WorkerTask task, std::string_view request,
                                                 const Deadline& deadline, std::string_view what) {
    std::string message(kHeader, '\0');
    const std::array<std::uint64_t, 2> header{
        static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(task)), request.size()};
    std::memcpy(message.data(), header.data(), kHeader);
    message.append(request);
    used_ = true;
    std::string_view unsent = message;
    while (!unsent.empty()) {
        if (!wait_ready(socket_, POLLOUT, deadline)) return timed_out(what);
        const ssize_t n = ::send(socket_, unsent.data(), unsent.size(), MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return ended_gap(what);
        unsent.remove_prefix(static_cast<std::size_t>(n));
    }
    return std::nullopt;
}

Result<std::string> IsolatedWorker::read_answer(const Deadline& deadline, std::string_view what) {
    std::string answer;
    std::size_t wanted = kAnswerHeader;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init): filled by the kernel
    std::array<char, 16384> buf;
    while (answer.size() < wanted) {
        if (!wait_ready(socket_, POLLIN, deadline)) return timed_out(what);
        const ssize_t got =
            ::recv(socket_, buf.data(), std::min(buf.size(), wanted - answer.size()), 0);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) return ended_gap(what);
        answer.append(buf.data(), static_cast<std::size_t>(got));
        if (answer.size() == kAnswerHeader && wanted == kAnswerHeader) {
            std::uint64_t size = 0;
            std::memcpy(&size, answer.data() + 1, sizeof size);
            if (size > kMaxWorkerAnswer) {
                end();
                return make_gap(GapReason::error,
                                std::string(what) + ": the child's answer announces " +
                                    std::to_string(size) + " bytes, more than the " +
                                    std::to_string(kMaxWorkerAnswer) + " a call may give");
            }
            wanted += size;
        }
    }
    // The worker ran out of descriptors or memory: the run cannot go on, whatever it asked.
    if (answer.front() == kAnswerExhausted)
        throw exhaustion_from_wire(std::string_view(answer).substr(kAnswerHeader));
    if (answer.front() == kAnswerException)
        return make_gap(GapReason::error, std::string(what) + ": " + answer.substr(kAnswerHeader));
    return answer.substr(kAnswerHeader);
}

// The call outlived its deadline: the child is killed (the next call starts a fresh one).
Gap IsolatedWorker::timed_out(std::string_view what) {
    end();
    return make_gap(GapReason::timeout, std::string(what) + ": did not return before the deadline");
}

}  // namespace rdmi
