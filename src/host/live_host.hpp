// LiveHost: the facts only the running kernel can give (uname, the caller's identity).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "os/fs.hpp"

namespace rdmi::host {

/// What uname(2) and the process credentials say about the machine this program runs on.
struct LiveHost {
    std::string machine;                ///< utsname.machine ("x86_64", "aarch64")
    std::string release;                ///< utsname.release ("6.8.0-45-generic")
    std::uint32_t uid = 0;              ///< effective uid
    std::uint32_t gid = 0;              ///< effective gid
    std::vector<std::uint32_t> groups;  ///< supplementary groups
};

/// The live host's facts when `fs` is the live root "/"; nullopt under any other root, so
/// nothing of the probing machine leaks into the description of a mounted one.
std::optional<LiveHost> query_live_host(const Fs& fs);

}  // namespace rdmi::host
