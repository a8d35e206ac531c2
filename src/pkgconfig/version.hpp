// Version comparison with pkg-config's own rules (libpkgconf's pkgconf_compare_version).
#pragma once

#include <string_view>

namespace rdmi::pkgconfig {

/// -1, 0 or 1 as `a` is older than, equal to or newer than `b` (RPM-style segment comparison:
/// numeric segments compare as numbers, so "3.0.0058" equals "3.0.58").
int compare_versions(std::string_view a, std::string_view b);

/// True when `version op required` holds; op is "", "=", "!=", "<", "<=", ">", ">=" ("" is
/// always true). An unknown operator never holds.
bool satisfies(std::string_view version, std::string_view op, std::string_view required);

}  // namespace rdmi::pkgconfig
