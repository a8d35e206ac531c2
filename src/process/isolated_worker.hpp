// One forked child per run for every call into vendor code (library constructors, driver calls):
// the first call starts it, later calls reuse it, so a live probe forks once instead of once
// per call, and the probe itself still always returns on time.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/deadline.hpp"
#include "core/result.hpp"
#include "process/isolated_call.hpp"

namespace rdmi {

/// The largest answer a call may give (the task's string); a child that announces or sends
/// more is ended and the call gets a Gap: a planted library in the child cannot make the probe
/// hold more than this.
inline constexpr std::size_t kMaxWorkerAnswer = std::size_t{64} << 20U;

/// Work the child runs: a plain function of the request bytes, so that nothing but bytes
/// crosses between the processes (the child is a fork of this program: the function's address
/// is the same there). It may throw; the exception's message comes back as the call's Gap.
using WorkerTask = std::string (*)(std::string_view request);

/// The child, started on the first call. Its stdout is /dev/null, it is contained before it runs
/// anything (process/containment.hpp, ContainedWork::library_calls), it is its own process group
/// (registered for the interrupt handlers), and it dies with the probe. A call that outlives
/// its deadline kills the child (Gap timeout); one that crashes it gives a Gap naming the
/// signal; either way the next call starts a fresh child, so one hung or crashing call costs
/// that call only. Destroying the worker kills the child's process group and reaps it.
class IsolatedWorker {
  public:
    IsolatedWorker() = default;
    /// A worker whose children are contained for `containment` instead of library_calls (the
    /// rpm database reader, which writes beside its private copy of the database).
    explicit IsolatedWorker(ContainmentRequest containment)
        : containment_(std::move(containment)) {}
    ~IsolatedWorker();
    IsolatedWorker(const IsolatedWorker&) = delete;
    IsolatedWorker& operator=(const IsolatedWorker&) = delete;

    /// Whether a call may run in a child that earlier calls used.
    enum class Child {
        reused,  ///< the running child, if any
        /// A child that has run nothing yet: for a call whose answer must be what a freshly
        /// started application gets. A library an earlier call loaded can stay loaded (vendor
        /// libraries are often not unloadable), and a later dlopen then binds its dependencies
        /// to that copy instead of the one the loader would find.
        fresh,
    };

    /// Runs `task(request)` in the child and returns what it returned. `what` names the call in
    /// messages ("dlopen libdoca_common.so.3").
    Result<std::string> call(WorkerTask task, std::string_view request, const Deadline& deadline,
                             std::string_view what, Child child = Child::reused);

    /// A call sent by send() whose answer receive() has not taken yet.
    struct Sent {
        std::uint64_t id = 0;
    };

    /// Sends `task(request)` to the child (starting it if none runs) and returns without
    /// waiting, so that the child's work (a library load, a driver scan) overlaps the caller's
    /// own; receive() takes the answer, bounded by `deadline` exactly as call() would be. A
    /// call() or send() made before that receive() first reads this answer and holds it.
    Sent send(WorkerTask task, std::string_view request, const Deadline& deadline,
              std::string_view what, Child child = Child::reused);
    /// Starts the child now if none runs, contained and waiting for its first call, so that its
    /// start (the fork, the containment it sets up) overlaps the caller's own work before that
    /// call. A child that cannot start now (a gap) is tried again by the call; a fork refused
    /// for the process limit ends the run here as it would there (ResourceExhausted).
    void prestart(std::string_view what);
    /// The answer to `sent` (waiting for it up to the deadline given to send()); a Gap when
    /// the child timed out, crashed, or was released before it answered.
    Result<std::string> receive(Sent sent);

    /// The run makes no more calls for now: the child is ended (its socket closed, its process
    /// group killed) without waiting for it, so that it exits while the probe builds its
    /// document instead of after. It is reaped by the destructor, or before a later call
    /// starts a fresh child. A call sent and not yet received is answered with a Gap.
    void release();

    /// How many children this worker has started (each a fork): 0 before the first call.
    [[nodiscard]] int children_started() const { return started_; }

  private:
    /// The one call sent and not yet answered.
    struct InFlight {
        std::uint64_t id;
        Deadline deadline;
        std::string what;
    };

    Result<bool> start(std::string_view what);
    void end();
    Gap ended_gap(std::string_view what);
    Gap timed_out(std::string_view what);
    std::optional<Gap> write_request(WorkerTask task, std::string_view request,
                                     const Deadline& deadline, std::string_view what);
    Result<std::string> read_answer(const Deadline& deadline, std::string_view what);
    /// Reads the in-flight call's answer into held_, so that the child can take another.
    void hold_in_flight();

    ContainmentRequest containment_;
    pid_t pid_ = -1;
    int socket_ = -1;    ///< the probe's end of the socket pair; -1 when no child runs
    bool used_ = false;  ///< the running child has been sent a call
    int started_ = 0;
    std::optional<InFlight> in_flight_;
    /// Answers read before their receive() asked (hold_in_flight, or a send that failed).
    std::vector<std::pair<std::uint64_t, Result<std::string>>> held_;
    std::uint64_t next_id_ = 1;
};

}  // namespace rdmi
