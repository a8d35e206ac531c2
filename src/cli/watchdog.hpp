// Watchdog: the whole-run bound of --timeout, for what no call deadline can stop (a read(2) on
// a hung network file system blocks in the kernel, in this process).
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "os/activity.hpp"

namespace rdmi::cli {

/// How long after --timeout the watchdog waits. Every external call's deadline is capped by the
/// run's, so a run slowed only by hanging tools or devices ends (with its document) just after
/// --timeout; the grace lets it, and the watchdog ends only a run stuck somewhere else.
inline constexpr std::chrono::milliseconds kWatchdogGrace{1000};

/// One thread per run that sleeps until `deadline`. If the run has not disarmed it by then, it
/// writes the timeout message (one line on stderr and, when `json`, an error document on
/// stdout), then ends the process with _exit(2): no destructor runs, so nothing races the thread
/// that is stuck.
class Watchdog {
  public:
    /// `wait_s`: the run's own wait beyond --timeout (check --wait), named in the message.
    Watchdog(std::chrono::steady_clock::time_point deadline, double timeout_s, bool json,
             double wait_s = 0);
    /// Disarms and lets the thread go without waiting for it: a run's last step would otherwise
    /// wait for the sleeping thread to be woken, scheduled and ended (on a busy machine, longer
    /// than the static probe's work). The thread keeps what it uses alive itself.
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    /// Called before the run writes its own output. Returns once the watchdog can no longer
    /// fire; when it has fired already, never returns (the process is being ended), so the two
    /// never both write.
    void disarm();

  private:
    enum class State { armed, disarmed, fired };
    /// What the thread and the run share; the thread holds it until it returns.
    struct Shared {
        double timeout_s = 0;
        double wait_s = 0;
        bool json = false;
        std::mutex mutex;
        std::condition_variable wake;
        State state = State::armed;
    };

    static void watch(const std::shared_ptr<Shared>& shared,
                      std::chrono::steady_clock::time_point deadline);

    std::shared_ptr<Shared> shared_;
};

/// The one-line message of a run that overran: the bound (--wait's too, when not 0), and what
/// was in progress.
std::string timeout_message(double timeout_s, const activity::Snapshot& activity,
                            double wait_s = 0);

}  // namespace rdmi::cli
