// Capability flag names, and the per-device capabilities from the DOCA layer.
#include "model/capabilities.hpp"

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

CapabilityDiscovery device_capabilities(bool live, const InstallFacts& install,
                                        const DocaCapsFacts& facts) {
    CapabilityDiscovery out;
    out.source = Provenance{"api", "doca_devinfo_create_list"};
    if (!live) {
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
    for (const auto& gap : facts.library_gaps) out.gaps.push_back(gap);
    if (facts.gap) {
        out.gaps.push_back(*facts.gap);
        return out;
    }
    for (const auto& device : facts.devices) {
        DeviceCapabilities caps;
        caps.pcie_address = device.pci_address;
        for (const auto& [library, flags] : device.supported) {
            // The contract names libraries as DOCA does ("doca_rdma"); the layer keys by "<lib>".
            auto& list = caps.library_capabilities["doca_" + library];
            list.insert(list.end(), flags.begin(), flags.end());
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
        }
        for (const auto& answer : device.answers)
            caps.sources.push_back(Provenance{"api", answer.symbol});
        out.devices.push_back(std::move(caps));
    }
    return out;
}

}  // namespace rdmi::contract
