// check_library_trust: walks the path upwards with lstat, like a careful loader would.
#include "loader/library_trust.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "os/errno_gap.hpp"
#include "os/fs.hpp"
#include "text/shell_word.hpp"

namespace rdmi {
namespace {

std::string octal(unsigned mode) {
    std::string out;
    for (int shift = 9; shift >= 0; shift -= 3)
        out += static_cast<char>('0' + ((mode >> static_cast<unsigned>(shift)) & 7U));
    return out;
}

// Walks `file` and every directory above it. With `strict_leaf`, the first entry (a directory
// that a loader searches) must not be writable by group or others even when sticky: anyone may
// create the file that would win there. `saw_link` is set when an entry is a symbolic link.
std::optional<Gap> check_chain(TrustCache& cache, const std::string& file, bool strict_leaf,
                               bool& saw_link) {
    const uid_t user = ::getuid();
    auto trusted_owner = [user](uid_t uid) { return uid == 0 || uid == user; };
    std::string path = file;
    bool first = true;
    bool child_trusted_owner = true;
    while (true) {
        const TrustCache::Stat answer = cache.lstat(path);
        if (answer.err != 0) {
            auto gap = gap_from_errno(path, answer.err);
            return Gap{GapReason::untrusted, gap.message};
        }
        const struct stat& st = answer.st;
        saw_link = saw_link || S_ISLNK(st.st_mode);
        const bool group_or_other_writable = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
        if (!trusted_owner(st.st_uid)) {
            return Gap{GapReason::untrusted,
                       path + ": owned by uid " + std::to_string(st.st_uid) +
                           ", not by root or the invoking user (fix: chown root " +
                           shell_word(path) + ")"};
        }
        const bool sticky_ok = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0 &&
                               child_trusted_owner && !(first && strict_leaf);
        // Symbolic links' own mode bits are meaningless (always 0777); their directory counts.
        if (group_or_other_writable && !sticky_ok && !S_ISLNK(st.st_mode)) {
            return Gap{GapReason::untrusted,
                       path + ": writable by " +
                           ((st.st_mode & S_IWOTH) != 0 ? "others" : "its group") + " (mode " +
                           octal(st.st_mode & 07777U) + "; fix: chmod go-w " + shell_word(path) +
                           ")"};
        }
        child_trusted_owner = trusted_owner(st.st_uid);
        if (path == "/") return std::nullopt;
        path = std::string(dir_name(path));
        if (first && path == ".") return Gap{GapReason::untrusted, file + ": not an absolute path"};
        first = false;
    }
}

// The real path of `path` whose chain check passed: the path itself when it is plain and no
// entry of it was a link (realpath could only give it back); "" when it cannot be had.
TrustCache::Real real_of(TrustCache& cache, const std::string& path, bool saw_link) {
    if (!saw_link && plain_absolute_path(path)) return TrustCache::Real{0, path};
    return cache.realpath(path);
}

}  // namespace

std::optional<Gap> check_search_dir_trust(const std::string& dir, TrustCache* shared) {
    if (dir.empty() || dir.front() != '/') {
        return Gap{GapReason::untrusted, "'" + dir + "': a relative library search directory"};
    }
    TrustCache own;
    TrustCache& cache = shared != nullptr ? *shared : own;
    // A missing directory is as good as its nearest existing ancestor: whoever can write
    // there can create it, and the file inside.
    std::string existing = dir;
    while (cache.lstat(existing).err != 0 && existing != "/") {
        existing = std::string(dir_name(existing));
    }
    bool saw_link = false;
    if (auto gap = check_chain(cache, existing, true, saw_link)) {
        if (existing != dir) gap->message += " (" + dir + " does not exist; it could be created)";
        return gap;
    }
    const TrustCache::Real real = real_of(cache, existing, saw_link);
    if (real.err == 0 && real.path != existing)
        return check_chain(cache, real.path, true, saw_link);
    return std::nullopt;
}

std::optional<Gap> check_library_trust(const std::string& path, TrustCache* shared) {
    if (path.empty() || path.front() != '/') {
        return Gap{GapReason::untrusted, path + ": not an absolute path"};
    }
    TrustCache own;
    TrustCache& cache = shared != nullptr ? *shared : own;
    bool saw_link = false;
    if (auto gap = check_chain(cache, path, false, saw_link)) return gap;
    const TrustCache::Real real = real_of(cache, path, saw_link);
    if (real.err != 0) {
        auto gap = gap_from_errno(path, real.err);
        return Gap{GapReason::untrusted, gap.message};
    }
    if (path != real.path) return check_chain(cache, real.path, false, saw_link);
    return std::nullopt;
}

}  // namespace rdmi
