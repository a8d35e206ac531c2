// The install probe: where DOCA is, which layout, the RDMI stack's modules, versions, headers,
// libraries, samples and DPA toolchain — and the checks derived from them.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "core/version.hpp"
#include "pkgconfig/module.hpp"

namespace rdmi {

/// The four pkg-config modules an RDMI program needs, at one and the same DOCA version.
inline constexpr std::array<const char*, 4> kRdmiStackModules = {"doca-common", "doca-verbs",
                                                                 "doca-dpa", "doca-rdmi"};

/// The public RDMI headers an install must ship (host side, then DPA device side).
inline constexpr std::array<const char*, 5> kRdmiHeaders = {
    "doca_rdmi_connection.h", "doca_rdmi_poster.h", "doca_rdmi_dev_connection.h",
    "doca_rdmi_dev_poster.h", "doca_rdmi_dev_cqe.h"};

/// Which directory layout the DOCA prefix has.
enum class DocaLayout {
    none,       ///< no DOCA pkg-config directory under the prefix
    multiarch,  ///< DOCA 3.x DEB: lib/<triplet>/pkgconfig
    lib64,      ///< DOCA 3.x RPM: lib64/pkgconfig
    legacy,     ///< DOCA 2.x split install: infrastructure/lib/pkgconfig
};

/// Stable name of a layout ("multiarch", "lib64", "legacy", "none").
std::string_view to_string(DocaLayout layout);

/// A requirement of a module that did not resolve.
struct UnresolvedRequirement {
    std::string name;
    std::string constraint;  ///< e.g. ">= 3.3.0", empty when unversioned
    std::string
        problem;  ///< "not found", "version 3.2.1025 does not satisfy >= 3.3.0", "cycle ..."
};

/// One pkg-config module as the install probe found it.
struct ModuleFacts {
    std::string name;
    bool found = false;
    bool on_search_path = false;  ///< found by the normal pkg-config search rules
    std::string pc_path;          ///< in-root path of the .pc file used
    std::string version;
    std::string prefix;
    std::string libdir;
    std::string includedir;
    std::vector<std::string> library_names;  ///< the -l names of its Libs
    std::vector<UnresolvedRequirement> unresolved;
    std::optional<Gap> gap;  ///< why it was not found (or could not be read)
    /// When it was not found in an install that exists: the package database's fix (which
    /// package lists the .pc in DOCA's own directory); "" otherwise.
    std::string package_fix;
    /// When its version disagrees with the RDMI stack's: "libdoca-sdk-dpa-dev (version
    /// 3.2.1025-1)", the installed package that lists its .pc; "" when none does or not asked.
    std::string owner;
};

/// One source of a DOCA version ("doca-common.pc", "applications/VERSION", ...).
struct VersionSource {
    std::string name;
    Sourced<std::string> raw;
    std::optional<DocaVersion> version;  ///< parsed; nullopt when absent or unparseable
};

/// One of the two "four-way matches": the RDMI stack's, or the contract's. Whether it holds is
/// decided by match_state() (probes/install/version_consistency.hpp); `consistent` caches that
/// verdict.
struct VersionMatch {
    std::vector<VersionSource> sources;
    bool consistent = false;               ///< match_state() == agree
    std::optional<DocaVersion> agreed;     ///< the version they agree on (the majority's)
    std::vector<std::string> absent;       ///< applicable sources that do not exist
    std::vector<std::string> unreadable;   ///< sources that exist but could not be read
    std::vector<std::string> unparseable;  ///< sources whose text is not a DOCA version
    std::vector<std::string> disagreeing;  ///< sources that differ from the majority
};

/// A file the install should have.
struct InstalledFile {
    std::string name;
    std::string path;  ///< in-root path where it was looked for (or found)
    bool present = false;
    std::optional<Gap> gap;
    std::string detail;    ///< e.g. the soname of a library, the version line of a tool
    std::string resolved;  ///< in-root path after symlinks (libraries), "" when not resolved
    /// The fix the package database gives for this file when it is missing or damaged (which
    /// package to reinstall, with the command); "" when the file is fine or was not asked about.
    std::string package_fix;
};

/// Everything the install probe learned.
struct InstallFacts {
    Sourced<std::string> prefix;  ///< where DOCA is; provenance says how it was chosen
    bool prefix_exists = false;
    DocaLayout layout = DocaLayout::none;
    std::string pc_dir;                    ///< DOCA's own pkg-config directory, in-root
    std::vector<std::string> search_path;  ///< pkg-config search dirs in order
    std::vector<ModuleFacts> stack;  ///< the four RDMI stack modules, in kRdmiStackModules order
    std::vector<ModuleFacts> doca_modules;  ///< every doca-*.pc in pc_dir
    VersionMatch stack_versions;            ///< the four .pc versions + runtime library
    VersionMatch contract_versions;  ///< doca-common.pc, applications/VERSION, doca_caps, BFB
    /// <prefix>/VERSION, the file DOCA's samples and applications build read as DOCA's version;
    /// outside both four-way matches (the contract names applications/VERSION), compared with
    /// applications/VERSION by the doca-version-files check.
    VersionSource version_file;
    std::string include_dir;
    std::vector<InstalledFile> headers;
    std::vector<InstalledFile> libraries;
    InstalledFile samples;
    InstalledFile doca_caps;
    InstalledFile dpacc;
    std::vector<Check> checks;
};

/// The facts one parsed .pc file gives (found, path, version, prefix/libdir/includedir, -l names).
ModuleFacts module_facts_from(const pkgconfig::Module& module);

/// Runs the install probe.
InstallFacts probe_install(const ProbeContext& ctx);

}  // namespace rdmi
