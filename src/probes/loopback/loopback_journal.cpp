// StepJournal: the run's steps under a lock, so that the watchdog thread can read them while the
// worker is stuck inside a DOCA call.
#include "probes/loopback/loopback_run.hpp"

namespace rdmi::loopback {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
        .count();
}

}  // namespace

void StepJournal::begin(std::string id, int level) {
    progress_->update("loopback: " + id, 0, 0);
    std::lock_guard lock(mutex_);
    running_ = LoopbackStep{std::move(id), level, StepOutcome::pass, 0, {}, {}};
    started_ = std::chrono::steady_clock::now();
}

void StepJournal::iteration(int done, int total) const {
    progress_->update("loopback: write", static_cast<std::size_t>(done),
                      static_cast<std::size_t>(total));
}

void StepJournal::end(StepOutcome outcome, std::string message, std::optional<DocaFailure> error) {
    std::lock_guard lock(mutex_);
    if (!running_) return;
    running_->outcome = outcome;
    running_->duration_ms = elapsed_ms(started_);
    running_->message = std::move(message);
    running_->error = std::move(error);
    verdict_.steps.push_back(std::move(*running_));
    running_.reset();
}

void StepJournal::record(std::string id, int level, StepOutcome outcome, std::string message) {
    std::lock_guard lock(mutex_);
    verdict_.steps.push_back(
        LoopbackStep{std::move(id), level, outcome, 0, std::move(message), {}});
}

void StepJournal::update(const std::function<void(LoopbackVerdict&)>& change) {
    std::lock_guard lock(mutex_);
    change(verdict_);
}

LoopbackVerdict StepJournal::snapshot() const {
    std::lock_guard lock(mutex_);
    return verdict_;
}

LoopbackVerdict StepJournal::abandoned(const std::string& why) const {
    std::lock_guard lock(mutex_);
    LoopbackVerdict verdict = verdict_;
    if (running_) {
        LoopbackStep step = *running_;
        step.outcome = StepOutcome::timeout;
        step.duration_ms = elapsed_ms(started_);
        step.message = why;
        verdict.steps.push_back(std::move(step));
    }
    verdict.teardown.complete = false;
    verdict.teardown.errors.emplace_back(
        "teardown not run: the process was abandoned inside a DOCA call; the kernel releases its "
        "device resources when the process exits");
    return verdict;
}

}  // namespace rdmi::loopback
