// Capability flag names, and the capability discovery until the DOCA layer plugs in.
#include "contract/capabilities.hpp"

#include <algorithm>

namespace rdmi::contract {

std::optional<std::string> capability_flag(std::string_view library, std::string_view symbol) {
    constexpr std::string_view kSuffix = "_is_supported";
    const std::string prefix = std::string(library) + "_cap_";
    if (library.empty() || !symbol.starts_with(prefix) || !symbol.ends_with(kSuffix))
        return std::nullopt;
    // doca_dpa_cap_is_supported: prefix and suffix overlap in "_cap_is_supported".
    if (symbol == std::string(library) + "_cap" + std::string(kSuffix)) {
        return std::string(library.substr(library.find('_') + 1));
    }
    if (symbol.size() <= prefix.size() + kSuffix.size()) return std::nullopt;
    std::string flag(symbol.substr(prefix.size(), symbol.size() - prefix.size() - kSuffix.size()));
    const bool valid = std::all_of(flag.begin(), flag.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (!valid || flag.front() == '_' || flag.back() == '_') return std::nullopt;
    return flag;
}

CapabilityDiscovery discover_device_capabilities(const ProbeContext& ctx,
                                                 const InstallFacts& install) {
    CapabilityDiscovery out;
    out.source = Provenance{"api", "doca_devinfo_create_list"};
    if (!ctx.live()) {
        out.gaps.push_back(Gap{GapReason::not_applicable,
                               "doca_devinfo_create_list: not called under --root (nothing is "
                               "loaded from a mounted root)"});
        return out;
    }
    const bool doca_common = !install.stack.empty() && install.stack.front().found;
    if (!doca_common) {
        out.gaps.push_back(Gap{GapReason::not_installed,
                               "doca_devinfo_create_list: DOCA is not installed (no doca-common)"});
        return out;
    }
    out.gaps.push_back(Gap{GapReason::not_installed,
                           "doca_devinfo_create_list: per-device DOCA capability discovery is "
                           "not part of this build of rdmi-probe"});
    return out;
}

}  // namespace rdmi::contract
