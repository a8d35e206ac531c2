// Internal steps of the install probe, one file each; exposed for the probe and its tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pkgconfig/pkgconfig.hpp"
#include "probes/install/install.hpp"

namespace rdmi::install {

/// Today's fixes when no package can be named (no database, or no package lists the file).
inline constexpr std::string_view kReinstallRdmiDev =
    "partial install: reinstall the DOCA RDMI development package";
/// The same for a library: `name` is the module ("doca-rdmi").
std::string reinstall_runtime_fix(const std::string& name, bool damaged);
/// The same for a tool ("dpacc").
std::string install_tool_fix(const std::string& name);

/// Chooses the DOCA prefix (--doca-prefix, else doca-common's prefix, else /opt/mellanox/doca)
/// and finds its layout and pkg-config directory.
void locate_prefix(const ProbeContext& ctx, const pkgconfig::PkgConfig& pc, InstallFacts& facts);

/// Looks up the four stack modules (search path first, then DOCA's own pc dir) and lists every
/// doca-*.pc module in DOCA's pc dir. Requires are resolved with DOCA's pc dir as a last
/// resort, so a module that is merely off the search path is not also reported as unresolvable.
void probe_modules(const ProbeContext& ctx, const pkgconfig::PkgConfig& pc, InstallFacts& facts);

/// Headers, shared objects, samples and where the tools (doca_caps, dpacc) are.
void probe_files(const ProbeContext& ctx, InstallFacts& facts);

/// dpacc's version from the output of `dpacc --version` (its "dpacc version X" line).
void read_dpacc_version(InstalledFile& dpacc, const Result<std::string>& out);

/// Both four-way version matches, including the runtime library and doca_caps (live only), and
/// dpacc's version: `doca_caps --version` and `dpacc --version` run side by side, and beside
/// the child that loads the runtime library.
void probe_versions(const ProbeContext& ctx, InstallFacts& facts);

/// Decides which present sources agree (the majority) and which disagree or are absent.
VersionMatch match_versions(std::vector<VersionSource> sources);

/// For each RDMI header, library or tool that is missing or damaged, the fix the package
/// database words (probes/install/package_fix.hpp); the database is opened only when one is.
void name_packages(const ProbeContext& ctx, InstallFacts& facts);
/// doca-version-files: <prefix>/VERSION against applications/VERSION (pass when they name one
/// release, warn when two, info when one of them is not there to compare).
Check version_files_check(const InstallFacts& facts);

/// Derives the install checks from the collected facts.
std::vector<Check> derive_checks(const InstallFacts& facts);

}  // namespace rdmi::install
