// libFuzzer target: the dpkg status parser (var/lib/dpkg/status of a probed root).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "packages/dpkg_status.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    // Small caps, so that the cap paths are reached by inputs libFuzzer can grow to.
    rdmi::DpkgStatusLimits limits;
    limits.max_packages = 64;
    limits.max_field_bytes = 4096;
    auto status = rdmi::parse_dpkg_status(bytes, "/var/lib/dpkg/status", limits);
    if (!status) {
        if (status.gap().message.find('\n') != std::string_view::npos) __builtin_trap();
        return 0;
    }
    // Every kept package has a name without blanks or '/', and a three-word Status behind it.
    for (const auto& package : status->packages) {
        if (package.name.empty() || package.name.find_first_of(" \t\n/") != std::string::npos)
            __builtin_trap();
        if (package.state.empty() || package.want.empty()) __builtin_trap();
    }
    if (status->problems.size() > limits.max_problems + 1) __builtin_trap();
    return 0;
}
