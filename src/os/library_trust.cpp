// check_library_trust: walks the path upwards with lstat, like a careful loader would.
#include "os/library_trust.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <memory>

#include "os/errno_gap.hpp"
#include "os/fs.hpp"

namespace rdmi {
namespace {

std::string octal(unsigned mode) {
    std::string out;
    for (int shift = 9; shift >= 0; shift -= 3)
        out += static_cast<char>('0' + ((mode >> static_cast<unsigned>(shift)) & 7U));
    return out;
}

std::optional<Gap> check_chain(const std::string& file) {
    const uid_t user = ::getuid();
    auto trusted_owner = [user](uid_t uid) { return uid == 0 || uid == user; };
    std::string path = file;
    bool first = true;
    bool child_trusted_owner = true;
    while (true) {
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0) {
            auto gap = gap_from_errno(path, errno);
            return Gap{GapReason::untrusted, gap.message};
        }
        const bool group_or_other_writable = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
        if (!trusted_owner(st.st_uid)) {
            return Gap{GapReason::untrusted, path + ": owned by uid " + std::to_string(st.st_uid) +
                                                 ", not by root or the invoking user"};
        }
        const bool sticky_ok =
            S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0 && child_trusted_owner;
        // Symbolic links' own mode bits are meaningless (always 0777); their directory counts.
        if (group_or_other_writable && !sticky_ok && !S_ISLNK(st.st_mode)) {
            return Gap{GapReason::untrusted,
                       path + ": writable by " +
                           ((st.st_mode & S_IWOTH) != 0 ? "others" : "its group") + " (mode " +
                           octal(st.st_mode & 07777U) + ")"};
        }
        child_trusted_owner = trusted_owner(st.st_uid);
        if (path == "/") return std::nullopt;
        path = std::string(dir_name(path));
        if (first && path == ".") return Gap{GapReason::untrusted, file + ": not an absolute path"};
        first = false;
    }
}

}  // namespace

std::optional<Gap> check_library_trust(const std::string& path) {
    if (path.empty() || path.front() != '/') {
        return Gap{GapReason::untrusted, path + ": not an absolute path"};
    }
    if (auto gap = check_chain(path)) return gap;
    std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
    if (!real) {
        auto gap = gap_from_errno(path, errno);
        return Gap{GapReason::untrusted, gap.message};
    }
    if (path != real.get()) return check_chain(real.get());
    return std::nullopt;
}

}  // namespace rdmi
