// LinkRule: which symbolic links the file layer follows. A process that reads with more than
// its user's rights (root) follows a link only when the link's owner could vouch for what it
// leads to: the owner is root, or owns the target (Apache's SymLinksIfOwnerMatch).
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/gap.hpp"

namespace rdmi {

/// Which links a view follows, and what becomes of one the owner rule refuses.
struct LinkRule {
    /// Follow a link only when its owner is root or owns its target. Off: every link is
    /// followed, as the kernel would (a process reading as an ordinary user reaches only what
    /// that user could read without the probe).
    bool owner_match = false;
    /// When set, a link the owner rule refuses is followed all the same and reported here
    /// (--allow-foreign-links) as "<path>: <why>" (foreign_link()); the caller logs it. Called
    /// from any thread that reads, once per read through the link.
    std::function<void(const std::string& followed)> on_followed_anyway;

    /// The rule for this process: owner_match when reads_beyond_its_user(), nothing reported.
    static LinkRule for_this_process();
};

/// Whether this process may read files its user could not: effective uid 0, or
/// CAP_DAC_OVERRIDE or CAP_DAC_READ_SEARCH in its effective capability set. Asked of the
/// kernel at each call (a run asks once per view it opens).
bool reads_beyond_its_user();

/// Who a uid is, for a message: "root" for 0, "uid N (name)" when `passwd` (the text of an
/// /etc/passwd) names it, "uid N" otherwise.
std::string owner_name(uid_t uid, std::string_view passwd);

/// The owner rule for one link: nullopt when a link owned by `link_uid` may be followed to a
/// target owned by `target_uid`; otherwise why not, naming the link (`link`, unless it is
/// `path` itself, what was asked for: a directory on the way) and both owners, looked up in
/// `passwd`: "symbolic link /p/lib owned by uid 65534 (nobody), target owned by root".
std::optional<std::string> foreign_link(std::string_view path, std::string_view link,
                                        uid_t link_uid, uid_t target_uid, std::string_view passwd);

/// What a read of `path` gives when the rule refused a link on its way (`why`: foreign_link()):
/// reason `untrusted`, "<path>: not followed: <why> (--allow-foreign-links follows it)".
Gap foreign_link_gap(std::string_view path, const std::string& why);

/// The text of `<root>/etc/passwd` (bounded; read following no link, never opening anything but
/// a regular file), or "" when it cannot be read that way. Only for naming owners in messages.
std::string passwd_below(const std::string& root);

}  // namespace rdmi
