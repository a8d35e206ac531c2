// Checks on the raw bytes of a `.pc` file for what libpkgconf would silently get wrong.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmi::pkgconfig {

/// Longest physical line accepted. libpkgconf 1.8 reads lines into a 65535-byte buffer and
/// silently splits longer ones into separate (garbage) lines.
inline constexpr std::size_t kMaxPcLineBytes = 65000;

/// What the byte-level check found.
struct PcTextCheck {
    /// Why the file must be rejected ("line 3 is 1000000 bytes long ..."); nullopt when fine.
    std::optional<std::string> fatal;
    /// Suspicious but accepted, as pkg-config accepts them (undefined or forward references).
    std::vector<std::string> warnings;
};

/// Rejects NUL bytes, lines longer than kMaxPcLineBytes, and variable definitions that refer
/// to themselves through other variables (`a=${b}` with `b=${a}`; libpkgconf expands these
/// eagerly to "" and the freedesktop pkg-config recurses). Warns about variables used before
/// they are defined or never defined (libpkgconf expands them to ""). Pure: no I/O.
PcTextCheck check_pc_text(std::string_view bytes);

}  // namespace rdmi::pkgconfig
