// Identity scanner: finds MAC addresses, GUIDs, IP addresses, serial numbers and host names in
// text in one pass, each candidate looked at over a bounded window, so that its time is linear
// and its stack constant on any input (a regex engine recursed once per character matched).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmi::bundle {

/// What a found value is.
enum class IdentityKind : std::uint8_t { mac, guid, ipv6, ipv4, serial, host_name };

/// The name of `kind` in the manifest's redaction counts ("mac", "guid", ...).
std::string_view identity_kind_name(IdentityKind kind);

/// One value found: bytes [begin, end) of the scanned text.
struct IdentitySpan {
    std::size_t begin = 0;
    std::size_t end = 0;
    IdentityKind kind = IdentityKind::mac;
};

/// How a scan reads its text.
struct ScanMode {
    /// Bytes of a binary file: a serial number ends at the first control byte (a NUL ends a
    /// string there), not only at a quote or a line end.
    bool binary = false;
    /// Host names are found inside paths too ("/srv/node7/root"). Only for text no replay reads
    /// as a path (the --root path): a stored path keeps its components (docs/gather.md).
    bool host_names_in_paths = false;
};

/// An IPv6 address as written: where each written group is and which of the eight it is.
struct Ipv6Text {
    struct Group {
        std::size_t begin = 0;  ///< offset in the address text
        std::size_t end = 0;
        std::size_t index = 0;  ///< 0..7 in the expanded address
    };
    std::vector<Group> groups;             ///< the hex groups written, in order
    std::optional<std::size_t> ipv4_tail;  ///< offset of a dotted IPv4 last 32 bits
    std::array<std::uint8_t, 16> bytes{};  ///< the address
};

/// `text` read as one whole IPv6 address (RFC 4291 section 2.2 text forms, at most one "::",
/// an optional dotted IPv4 tail); nullopt when it is not one.
std::optional<Ipv6Text> parse_ipv6(std::string_view text);

/// Finds identities; holds the host names to look for.
class IdentityScanner {
  public:
    /// `host_names`: the names to find, any case; each is found as a whole word, never inside
    /// a longer name.
    explicit IdentityScanner(std::vector<std::string> host_names);

    /// Every identity in `text`, left to right, none overlapping. Linear in `text`'s size.
    [[nodiscard]] std::vector<IdentitySpan> scan(std::string_view text, ScanMode mode) const;

  private:
    std::vector<std::string> host_names_;  ///< lower case, longest first
    std::array<bool, 256> host_first_{};   ///< first bytes of the host names, both cases
};

}  // namespace rdmi::bundle
