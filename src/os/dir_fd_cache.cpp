// DirFdCache: a small least-recently-used table; linear search is cheaper than hashing at
// this size.
#include "os/dir_fd_cache.hpp"

#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>

namespace rdmi {
namespace {

std::atomic<unsigned> g_fork_generation{0};

void note_fork_in_child() {
    g_fork_generation.fetch_add(1, std::memory_order_relaxed);
}

unsigned watch_forks() {
    // Registered once per process, on the first cache made (no static initialiser).
    static const bool registered = ::pthread_atfork(nullptr, nullptr, &note_fork_in_child) == 0;
    // Without the handler a child could not tell: the caches then never answer in anyone.
    return registered ? g_fork_generation.load(std::memory_order_relaxed) : ~0U;
}

// A quarter of the soft descriptor limit, at most kCapacity: a process given few descriptors
// (ulimit -n 40) needs them for the files it reads, not for directories held to save time.
std::size_t capacity_for_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return DirFdCache::kCapacity;
    return std::min<std::size_t>(DirFdCache::kCapacity, limit.rlim_cur / 4);
}

}  // namespace

DirFdCache::DirFdCache() : capacity_(capacity_for_limit()), fork_generation_(watch_forks()) {}

std::size_t DirFdCache::clear() {
    const std::scoped_lock lock(mutex_);
    const auto held = static_cast<std::size_t>(std::count_if(
        slots_.begin(), slots_.end(), [](const Slot& slot) { return slot.fd != nullptr; }));
    slots_.clear();
    return held;
}

bool DirFdCache::answering() const {
    return g_fork_generation.load(std::memory_order_relaxed) == fork_generation_ &&
           !disabled_.load(std::memory_order_relaxed);
}

std::shared_ptr<const UniqueFd> DirFdCache::nearest(std::string_view path,
                                                    std::size_t& dir_length) {
    if (!answering()) return nullptr;
    const std::scoped_lock lock(mutex_);
    const Slot* best = nullptr;
    for (const auto& slot : slots_) {
        if (!slot.fd || slot.dir.size() >= path.size() || path[slot.dir.size()] != '/' ||
            path.compare(0, slot.dir.size(), slot.dir) != 0)
            continue;
        if (best == nullptr || slot.dir.size() > best->dir.size()) best = &slot;
    }
    if (best == nullptr) return nullptr;
    dir_length = best->dir.size();
    return best->fd;
}

std::shared_ptr<const UniqueFd> DirFdCache::get(std::string_view dir) {
    if (!answering() || capacity_ == 0) return nullptr;
    std::unique_lock lock(mutex_);
    auto slot = find(dir);
    if (slot == slots_.end()) {
        remember(dir);
        return nullptr;  // the first use: opened the ordinary way
    }
    slot->last_use = ++clock_;
    if (slot->fd || slot->failed) return slot->fd;
    // Opened without the lock: a walk on a hung mount must not stall every other reader.
    lock.unlock();
    const int raw = opener_ ? opener_(dir) : -1;
    auto fd = raw < 0 ? nullptr : std::make_shared<const UniqueFd>(raw);
    lock.lock();
    slot = find(dir);  // another thread may have evicted it, or opened it first
    if (slot == slots_.end()) slot = remember(dir);
    if (!slot->fd && !slot->failed) {
        slot->fd = fd;
        slot->failed = fd == nullptr;
    }
    return slot->fd;
}

std::vector<DirFdCache::Slot>::iterator DirFdCache::find(std::string_view dir) {
    return std::find_if(slots_.begin(), slots_.end(),
                        [dir](const Slot& s) { return s.dir == dir; });
}

std::vector<DirFdCache::Slot>::iterator DirFdCache::remember(std::string_view dir) {
    auto slot = slots_.end();
    if (slots_.size() >= capacity_) {
        slot = std::min_element(slots_.begin(), slots_.end(), [](const Slot& a, const Slot& b) {
            return a.last_use < b.last_use;
        });
        *slot = Slot{};
    } else {
        slot = slots_.emplace(slots_.end());
    }
    slot->dir = std::string(dir);
    slot->last_use = ++clock_;
    return slot;
}

}  // namespace rdmi
