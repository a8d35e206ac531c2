// TrustCache: the system calls are made outside the lock (a hung mount stalls only its caller).
#include "loader/trust_cache.hpp"

#include <cerrno>

namespace rdmi {
namespace {

template <typename Map, typename Ask>
auto remembered(std::mutex& mutex, Map& answers, const std::string& path, Ask ask) {
    {
        const std::scoped_lock lock(mutex);
        if (auto it = answers.find(path); it != answers.end()) return it->second;
    }
    auto answer = ask();
    const std::scoped_lock lock(mutex);
    return answers.emplace(path, std::move(answer)).first->second;
}

}  // namespace

TrustCache::Stat TrustCache::lstat(const std::string& path) {
    return remembered(mutex_, lstats_, path, [&path] {
        Stat answer;
        if (::lstat(path.c_str(), &answer.st) != 0) answer.err = errno;
        return answer;
    });
}

TrustCache::Stat TrustCache::stat(const std::string& path) {
    return remembered(mutex_, stats_, path, [&path] {
        Stat answer;
        if (::stat(path.c_str(), &answer.st) != 0) answer.err = errno;
        return answer;
    });
}

TrustCache::Real TrustCache::realpath(const std::string& path) {
    return remembered(mutex_, reals_, path, [this, &path] {
        RealPaths::Answer answer = real_paths_.resolve(path);
        return Real{answer.err, std::move(answer.path)};
    });
}

}  // namespace rdmi
