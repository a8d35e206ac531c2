// DOCA version strings: parsing, normalising ("3.0.0058" = release 3.0.0, build 58), comparing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rdmi {

/// A DOCA version. DOCA writes the third field zero-padded to four digits as patch*1000+build
/// (3.2.1025 = release 3.2.1, build 25); a shorter third field is a plain patch level with no
/// build ("3.3.0").
struct DocaVersion {
    unsigned major = 0;
    unsigned minor = 0;
    unsigned patch = 0;
    std::optional<unsigned> build;

    /// DOCA's own spelling: "3.2.1025" when the build is known, else "3.2.1".
    [[nodiscard]] std::string to_string() const;
    /// "3.2.1" — the release, without the build.
    [[nodiscard]] std::string release() const;
};

/// Parses "M.m.p" with optional surrounding whitespace; nullopt for anything else.
std::optional<DocaVersion> parse_doca_version(std::string_view text);

/// Finds the first version-looking token ("3.3.0105", "2.9.1") in free text such as a tool's
/// --version output or a BFB name ("bf-bundle-2.9.1-40_...", "DOCA_2.2.1_BSP_...").
std::optional<DocaVersion> find_doca_version(std::string_view text);

/// True when two versions name the same release and their builds agree where both are known.
bool same_doca_version(const DocaVersion& a, const DocaVersion& b);

/// Orders versions by release, then build (an unknown build orders as 0).
int compare_doca_versions(const DocaVersion& a, const DocaVersion& b);

}  // namespace rdmi
