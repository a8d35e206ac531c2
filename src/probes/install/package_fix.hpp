// Fixes worded from the package manager's own records: which package to reinstall for a file
// the install should have, with the manager's exact command.
#pragma once

#include <string>
#include <string_view>

#include "context/context.hpp"

namespace rdmi {

/// How to look for an owner when no package lists the file itself.
enum class OwnerFallback {
    directory,  ///< the package owning most files of the same directory (a partial install)
    none,       ///< nothing: the file is a package of its own (a tool such as dpacc)
};

/// The fix for the missing (or damaged) in-root file `path`, asked of the run's package
/// database (opened by the first call):
/// - a package lists it: "package X (version V) lists F, but F is missing: reinstall X
///   (apt-get install --reinstall X)" (`problem` words what is wrong instead of "is missing");
/// - none lists it: the package owning most files of its directory, when `fallback` allows;
/// - else `generic`, followed by why the records could not name a package (no database found,
///   the database unusable, no installed package lists the file).
std::string package_fix(const ProbeContext& ctx, const std::string& path,
                        const std::string& generic, OwnerFallback fallback,
                        std::string_view problem = "is missing");

/// "<package> (version <version>)" of the installed package that lists the in-root file
/// `path`; "" when there is no usable database or no package lists it.
std::string listing_package(const ProbeContext& ctx, const std::string& path);

}  // namespace rdmi
