// Resolving a path inside a root in user space, one lstat per component: the fallback for
// kernels (or seccomp profiles) without openat2(RESOLVE_IN_ROOT).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "os/link_rule.hpp"

namespace rdmi {

/// What resolve_in_root() has walked: an in-root path (a directory the path asked for went
/// through, spelled as asked, or a link met on the way) and the canonical path it led to, every
/// link on the way judged by the owner rule. A later walk through the same directory or link
/// starts from there, so that the lstat per component is paid once per directory and link, not
/// once per file. Bounded (forgotten wholesale when full); shared by a view's copies;
/// thread-safe.
class WalkedDirs {
  public:
    /// How many paths are remembered at most.
    static constexpr std::size_t kCapacity = 8192;

    /// The canonical in-root path `dir` led to, when it was walked.
    [[nodiscard]] std::optional<std::string> find(std::string_view dir) const;
    /// Remembers that `dir` led to `canonical`.
    void remember(std::string_view dir, std::string canonical);
    /// Forgets every walk (the tree may have changed since).
    void clear();

  private:
    mutable std::mutex mutex_;
    std::map<std::string, std::string, std::less<>> canonical_;
};

/// Resolves the absolute in-root `path` below the host directory `root` the way
/// openat2(RESOLVE_IN_ROOT) would: absolute link targets are re-rooted, ".." stops at the
/// root, more than 40 links is a loop. The final component is followed only when
/// `follow_last`. Returns the canonical in-root path; a missing final component is not an
/// error (the caller's own call reports it). Under `rule.owner_match`, a link whose owner is
/// neither root nor its target's owner is a Gap (os/link_rule.hpp), or is followed and reported
/// to `rule.on_followed_anyway` when that is set; the owners come from the lstat each
/// component gets anyway (one more after a target of "." or ".."). `walked`, when given (with
/// one `rule` for its life): where a plain path's directories led before (the walk starts at
/// the deepest one known), and where those it walks past lead now.
Result<std::string> resolve_in_root(const std::string& root, std::string_view path,
                                    bool follow_last, const LinkRule& rule = {},
                                    WalkedDirs* walked = nullptr);

/// "<root><in_root>", or `root` itself for "/".
std::string host_path_of(const std::string& root, const std::string& in_root);

}  // namespace rdmi
