// Watchdog: a condition-variable sleep on its own thread; when it fires, plain write(2) calls
// and _exit, because the main thread may be stuck anywhere (holding no lock we need: it is in a
// system call, or computing).
#include "cli/watchdog.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <string_view>
#include <thread>

#include "cli/error_document.hpp"
#include "cli/exit_codes.hpp"
#include "cli/interrupt.hpp"
#include "os/child_groups.hpp"
#include "os/private_dir.hpp"
#include "report/terminal_text.hpp"

namespace rdmi::cli {
namespace {

void write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // nowhere to report to: exit anyway
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

std::string seconds_text(double seconds) {
    std::array<char, 32> buf{};
    std::snprintf(buf.data(), buf.size(), "%g", seconds);  // NOLINT(cert-err33-c)
    return buf.data();
}

}  // namespace

std::string timeout_message(double timeout_s, const activity::Snapshot& activity, double wait_s) {
    std::string message = "timeout: the run did not finish within ";
    if (wait_s > 0) message += "--wait " + seconds_text(wait_s) + " s and ";
    message += "--timeout " + seconds_text(timeout_s) + " s (+" +
               seconds_text(std::chrono::duration<double>(kWatchdogGrace).count()) + " s grace); ";
    if (!activity.recorded) {
        message += "no file system call had started";
    } else if (activity.in_progress) {
        message += "still " + activity.description;
    } else {
        message += "not in a file system call (the last one was " + activity.description + ")";
    }
    return message;
}

Watchdog::Watchdog(std::chrono::steady_clock::time_point deadline, double timeout_s, bool json,
                   double wait_s)
    : shared_(std::make_shared<Shared>()) {
    shared_->timeout_s = timeout_s;
    shared_->wait_s = wait_s;
    shared_->json = json;
    // One watchdog per run: the run's final output has no owner yet (in one process, runs
    // follow each other in the tests).
    reset_output_owner();
    std::thread([shared = shared_, deadline] { watch(shared, deadline); }).detach();
}

Watchdog::~Watchdog() {
    disarm();
}

void Watchdog::disarm() {
    std::unique_lock lock(shared_->mutex);
    if (shared_->state == State::fired) {
        // The watchdog is writing its report and will end the process; wait for that.
        lock.unlock();
        wait_for_the_owner_to_exit();
    }
    shared_->state = State::disarmed;
    shared_->wake.notify_one();
}

void Watchdog::watch(const std::shared_ptr<Shared>& shared,
                     std::chrono::steady_clock::time_point deadline) {
    // Interrupts are handled on the main thread, where children are started.
    block_interrupts_in_this_thread();
    {
        std::unique_lock lock(shared->mutex);
        shared->wake.wait_until(lock, deadline, [&] { return shared->state != State::armed; });
        if (shared->state != State::armed) return;
        shared->state = State::fired;
    }
    kill_child_groups();
    remove_pending_file();
    remove_private_dir_now();
    // A signal handler already ending the run writes its own words.
    if (!claim_output(OutputOwner::watchdog)) {
        wait_for_the_owner_to_exit();
    }
    const std::string message =
        timeout_message(shared->timeout_s, activity::snapshot(), shared->wait_s);
    write_all(STDERR_FILENO, "rdmi-probe: " + text::terminal_safe(message) + "\n");
    if (shared->json) write_all(STDOUT_FILENO, error_document(message, kExitUsage));
    ::_exit(kExitUsage);
}

}  // namespace rdmi::cli
