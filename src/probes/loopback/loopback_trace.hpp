// The loopback's call trace (`loopback --trace FILE`): one JSON line per DOCA call with its
// arguments (pointers and handles in hex, out-parameters with what they received), the return
// value and its error name, the time it took and the thread, written as the call returns so that
// a hang or a crash leaves every call before it on disk.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/doca_dpa_api.hpp"
#include "os/append_file.hpp"

namespace rdmi::loopback {

/// The sink. Thread-safe: each line is one append.
class CallTrace {
  public:
    explicit CallTrace(AppendFile file);
    /// Stops being the active trace (traced_api's trampolines and active_trace()).
    ~CallTrace();
    CallTrace(const CallTrace&) = delete;
    CallTrace& operator=(const CallTrace&) = delete;

    /// Records one call. `returned` is the doca_error_t, or nullopt for a call returning a
    /// pointer (then `pointer` holds it).
    void call(std::string_view function, const std::vector<std::string>& args,
              std::optional<int> returned, std::string_view pointer, double elapsed_us);
    /// Records a step boundary ("begin"/"end") so that calls can be read per step.
    void step(std::string_view id, std::string_view event);
    /// False once a write failed (disk full, ...): the trace is incomplete.
    [[nodiscard]] bool complete() const { return complete_.load(); }

  private:
    void write(const std::string& line);
    AppendFile file_;
    std::chrono::steady_clock::time_point start_;
    std::atomic<long> seq_{0};
    std::atomic<bool> complete_{true};
};

/// A copy of `api` in which every function but the variadic kernel launch (which the
/// orchestration records itself) records its calls to `trace` and then returns what the real
/// one returned. Error naming is not traced. One traced table at a time per process: the
/// trampolines find `api` and `trace` through process-wide pointers, which this call sets.
doca::DocaDpaApi traced_api(const doca::DocaDpaApi& api, CallTrace& trace);

/// The trace of the traced table in use, or nullptr.
CallTrace* active_trace();

/// "0x7f..." for a pointer, "NULL" for nullptr.
std::string hex(const void* pointer);
/// "0x1a2b".
std::string hex(std::uint64_t value);

}  // namespace rdmi::loopback
