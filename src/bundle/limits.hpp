// The one table of what a bundle may hold. Replay refuses an archive past any of these limits;
// gather stores no more than they allow, so that every bundle it writes replays.
#pragma once

#include <cstdint>

namespace rdmi::bundle {

/// Bounds on a bundle archive and its documents (docs/gather.md "Limits"). The fields are
/// variables, not constants, so that the unit tests can try the rules with small numbers;
/// the program uses kBundleLimits.
struct BundleLimits {
    std::uint64_t entries = 200000;                           ///< archive entries, all kinds
    std::uint64_t entry_bytes = std::uint64_t{64} << 20U;     ///< one entry's contents
    std::uint64_t extract_bytes = std::uint64_t{256} << 20U;  ///< all entries' contents
    std::uint64_t name_bytes = 4096;      ///< an entry's name, "rdmi-probe-bundle/..." included
    std::uint64_t depth = 48;             ///< components of an entry's name, the top one included
    std::uint64_t component_bytes = 255;  ///< one component of a name (NAME_MAX)
    std::uint64_t link_bytes = 4095;      ///< a symbolic link's text (PATH_MAX without its NUL)
    /// manifest.json and captured.json, each (read and parsed whole: json_input's bundle cap).
    std::uint64_t document_bytes = std::uint64_t{16} << 20U;
};

/// The limits every replay enforces and every gather keeps to.
inline constexpr BundleLimits kBundleLimits{};

}  // namespace rdmi::bundle
