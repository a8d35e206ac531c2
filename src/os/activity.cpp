// Activity record: one process-wide slot under a mutex. Only the thread doing file system work
// writes it and only the watchdog reads it, once, when the run has overrun; the writer never
// blocks while holding the lock, so the reader cannot be kept waiting by a stuck read(2).
#include "os/activity.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>

namespace rdmi::activity {
namespace {

struct Record {
    std::mutex mutex;
    Kind kind = Kind::reading;
    std::array<char, kMaxPathBytes> path{};
    std::size_t length = 0;
    bool truncated = false;
    std::uint64_t generation = 0;  ///< which Scope wrote the record; 0: none yet
};

constinit Record g_record;
/// The generation of the Scope still open, or 0 once it has ended.
constinit std::atomic<std::uint64_t> g_in_progress{0};

std::string_view kind_name(Kind kind) {
    switch (kind) {
        case Kind::reading:
            return "reading";
        case Kind::listing:
            return "listing";
        case Kind::examining:
            return "examining";
        case Kind::redacting:
            return "redacting";
    }
    return "reading";
}

}  // namespace

Scope::Scope(Kind kind, std::string_view path) noexcept {
    const std::lock_guard lock(g_record.mutex);
    generation_ = ++g_record.generation;
    g_record.kind = kind;
    g_record.length = std::min(path.size(), g_record.path.size());
    g_record.truncated = path.size() > g_record.path.size();
    std::copy_n(path.data(), g_record.length, g_record.path.data());
    g_in_progress.store(generation_, std::memory_order_release);
}

Scope::~Scope() {
    // Only the innermost, latest scope clears the mark; an outer one finishing later must not.
    std::uint64_t expected = generation_;
    g_in_progress.compare_exchange_strong(expected, 0, std::memory_order_acq_rel);
}

Snapshot snapshot() {
    const std::lock_guard lock(g_record.mutex);
    Snapshot out;
    out.recorded = g_record.generation != 0;
    if (!out.recorded) return out;
    out.in_progress = g_in_progress.load(std::memory_order_acquire) == g_record.generation;
    out.description = kind_name(g_record.kind);
    out.description += ' ';
    for (std::size_t i = 0; i < g_record.length; ++i) {
        const auto c = static_cast<unsigned char>(g_record.path[i]);
        // One line, whatever the file name holds.
        out.description += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
    }
    if (g_record.truncated) out.description += "...";
    return out;
}

}  // namespace rdmi::activity
