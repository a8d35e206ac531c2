// errno -> Gap.
#include "os/errno_gap.hpp"

#include <cerrno>
#include <cstring>
#include <string>

namespace rdmi {

Gap gap_from_errno(std::string_view what, int err) {
    // Every errno the OS layer reports passes here: the one place exhaustion leaves the gaps.
    throw_if_exhausted(what, err);
    std::string prefix = std::string(what) + ": ";
    switch (err) {
        case ENOENT:
        case ENOTDIR:
            return {GapReason::not_found, prefix + "no such file or directory"};
        case EACCES:
        case EPERM:
            return {GapReason::permission_denied, prefix + "permission denied"};
        case ELOOP:
            return {GapReason::error, prefix + "symbolic link loop"};
        case EFBIG:
            // Only a write past RLIMIT_FSIZE (ulimit -f) or the file system's largest file; the
            // run ignores SIGXFSZ so that this is seen instead of a silent death.
            return {GapReason::error, prefix + "file too large (EFBIG: the file size limit)"};
        case EISDIR:
            return {GapReason::malformed, prefix + "is a directory, not a regular file"};
        default:
            return {GapReason::error,
                    prefix + std::strerror(err)};  // NOLINT(concurrency-mt-unsafe)
    }
}

}  // namespace rdmi
