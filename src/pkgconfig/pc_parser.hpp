// Parses the bytes of one `.pc` file with libpkgconf (never letting it touch the disk).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "pkgconfig/module.hpp"

namespace rdmi::pkgconfig {

/// Longest value libpkgconf 1.8 can hold; a value this long was truncated by its fixed buffers.
inline constexpr std::size_t kMaxPcValueBytes = 65000;

/// How to interpret a `.pc` file; the fields mean what the same-named environment variables
/// mean to pkg-config.
struct ParseOptions {
    /// PKG_CONFIG_SYSROOT_DIR: prefixes absolute variable values, -I and -L paths, and is the
    /// value of ${pc_sysrootdir}.
    std::optional<std::string> sysroot;
    /// PKG_CONFIG_FDO_SYSROOT_RULES (or DESTDIR equal to the sysroot): prefix only -I and -L.
    bool fdo_sysroot_rules = false;
};

/// Parses `bytes` as the `.pc` file at in-root path `pc_path` (which gives the module name and
/// ${pcfiledir}). libpkgconf does the parsing, variable expansion, fragment and Requires
/// parsing. A Gap (malformed, "<pc_path>: <problem>") for empty files, NUL bytes, overlong
/// lines or values, variable cycles, and files libpkgconf rejects (no Name, Description or
/// Version); libpkgconf's own messages are captured into the Gap or Module::warnings, never
/// printed.
Result<Module> parse_pc(std::string_view bytes, std::string_view pc_path,
                        const ParseOptions& options = {});

}  // namespace rdmi::pkgconfig
