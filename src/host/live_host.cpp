// The only live system calls of the sysfs layer: uname(2) and the process credentials.
#include "host/live_host.hpp"

#include <sys/utsname.h>
#include <unistd.h>

namespace rdmi::host {

std::optional<LiveHost> query_live_host(const Fs& fs) {
    if (!fs.is_live()) return std::nullopt;
    struct utsname uts {};
    if (::uname(&uts) != 0) return std::nullopt;
    LiveHost host;
    host.machine = uts.machine;
    host.release = uts.release;
    host.uid = ::geteuid();
    host.gid = ::getegid();
    const int count = ::getgroups(0, nullptr);
    if (count > 0) {
        std::vector<gid_t> groups(static_cast<std::size_t>(count));
        const int got = ::getgroups(count, groups.data());
        for (int i = 0; i < got; ++i) host.groups.push_back(groups[static_cast<std::size_t>(i)]);
    }
    return host;
}

}  // namespace rdmi::host
