// user_label over getpwuid_r (reentrant: the probe has worker threads).
#include "os/user_label.hpp"

#include <pwd.h>
#include <unistd.h>

#include <vector>

namespace rdmi {

std::string user_label(uid_t uid) {
    const std::string id = "uid " + std::to_string(uid);
    passwd entry{};
    passwd* found = nullptr;
    std::vector<char> buffer(16384);
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr ||
        entry.pw_name == nullptr || *entry.pw_name == '\0')
        return id;
    return std::string(entry.pw_name) + " (" + id + ")";
}

std::string trusted_owners_label() {
    const uid_t self = ::geteuid();
    return self == 0 ? "root" : "root or " + user_label(self);
}

}  // namespace rdmi
