// LinkRule: who the process reads as, the owner rule's verdict and its message.
#include "os/link_rule.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>

#include "os/unique_fd.hpp"

namespace rdmi {
namespace {

// More than any /etc/passwd of a real machine; a name is only a courtesy in a message.
constexpr std::size_t kMaxPasswdBytes = std::size_t{1} << 20U;

bool capability_effective(int cap) {
    __user_cap_header_struct header{};
    header.version = _LINUX_CAPABILITY_VERSION_3;
    header.pid = 0;
    std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> data{};
    if (::syscall(SYS_capget, &header, data.data()) != 0) return false;
    const auto index = static_cast<std::size_t>(cap) / 32U;
    return index < data.size() && (data[index].effective & (1U << (cap % 32))) != 0;
}

std::string uid_text(uid_t uid) {
    return "uid " + std::to_string(uid);
}

}  // namespace

bool reads_beyond_its_user() {
    // Not the real uid: a set-uid or sudo'ed probe reads with its effective rights. The
    // capabilities are what a non-root service given CAP_DAC_READ_SEARCH reads with.
    return ::geteuid() == 0 || capability_effective(CAP_DAC_OVERRIDE) ||
           capability_effective(CAP_DAC_READ_SEARCH);
}

LinkRule LinkRule::for_this_process() {
    LinkRule rule;
    rule.owner_match = reads_beyond_its_user();
    return rule;
}

std::string owner_name(uid_t uid, std::string_view passwd) {
    if (uid == 0) return "root";
    const std::string wanted = std::to_string(uid);
    while (!passwd.empty()) {
        const std::size_t end = std::min(passwd.find('\n'), passwd.size());
        const std::string_view line = passwd.substr(0, end);
        passwd.remove_prefix(std::min(end + 1, passwd.size()));
        // name:password:uid:...
        const std::size_t first = line.find(':');
        const std::size_t second =
            first == std::string_view::npos ? first : line.find(':', first + 1);
        const std::size_t third =
            second == std::string_view::npos ? second : line.find(':', second + 1);
        if (third == std::string_view::npos || first == 0) continue;
        if (line.substr(second + 1, third - second - 1) == wanted)
            return uid_text(uid) + " (" + std::string(line.substr(0, first)) + ")";
    }
    return uid_text(uid);
}

std::optional<std::string> foreign_link(std::string_view path, std::string_view link,
                                        uid_t link_uid, uid_t target_uid, std::string_view passwd) {
    if (link_uid == 0 || link_uid == target_uid) return std::nullopt;
    std::string why = "symbolic link ";
    if (link != path) why += std::string(link) + " ";
    why += "owned by " + owner_name(link_uid, passwd) + ", target owned by " +
           owner_name(target_uid, passwd);
    return why;
}

Gap foreign_link_gap(std::string_view path, const std::string& why) {
    return Gap{GapReason::untrusted, std::string(path) + ": not followed: " + why +
                                         " (--allow-foreign-links follows it)"};
}

std::string passwd_below(const std::string& root) {
    const UniqueFd dir(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() < 0) return {};
    open_how how{};
    how.flags = O_PATH | O_CLOEXEC;
    how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS;
    const UniqueFd held(
        static_cast<int>(::syscall(SYS_openat2, dir.get(), "etc/passwd", &how, sizeof how)));
    struct stat st {};
    if (held.get() < 0 || ::fstat(held.get(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    // The very inode checked above, opened for reading: a device node is never opened.
    std::array<char, 32> proc{};
    std::snprintf(proc.data(), proc.size(), "/proc/self/fd/%d", held.get());
    const UniqueFd file(::open(proc.data(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));  // NOLINT
    if (file.get() < 0) return {};
    std::string text(std::min(static_cast<std::size_t>(st.st_size), kMaxPasswdBytes), '\0');
    std::size_t have = 0;
    while (have < text.size()) {
        const ssize_t got = ::read(file.get(), text.data() + have, text.size() - have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        have += static_cast<std::size_t>(got);
    }
    text.resize(have);
    return text;
}

}  // namespace rdmi
