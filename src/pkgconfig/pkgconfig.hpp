// PkgConfig: finds and reads `.pc` modules with the pkg-config command's search rules, through
// the Fs seam (so it works under --root, never blocks on a FIFO, never leaves the root).
//
// Search rules (those of pkgconf 1.8's `pkg-config`):
//  * The search path is every directory of PKG_CONFIG_PATH (colon separated, empty entries
//    ignored), then the directories of PKG_CONFIG_LIBDIR when that variable is set (even to
//    ""), else the compiled-in default directories of the system personality (see
//    default_search_dirs()), then the caller's extra directories (a fallback that pkg-config
//    itself does not have). All are in-root paths; trailing slashes are dropped.
//  * In each directory `<name>-uninstalled.pc` is tried before `<name>.pc` (unless
//    PKG_CONFIG_DISABLE_UNINSTALLED is set). The first candidate that parses wins; a candidate
//    that cannot be read or parsed is skipped, as pkg-config skips it, and the reason is kept
//    (Module::warnings, or the Gap when nothing is found).
//  * A name ending in ".pc" is a path to a file, as on the pkg-config command line.
//  * PKG_CONFIG_SYSROOT_DIR is set on the libpkgconf client: it prefixes absolute variable
//    values and -I/-L paths and is ${pc_sysrootdir}; PKG_CONFIG_FDO_SYSROOT_RULES (or DESTDIR
//    equal to it) restricts it to -I/-L paths. It does not change where files are searched.
//  * Built-in virtual modules (`pkg-config`, `pkgconf`) are not provided.
// Every file is read with Fs::read_file and parsed from memory (parse_pc): libpkgconf never
// opens a file or directory itself. Variables, fragments and Requires are libpkgconf's; version
// comparisons are pkgconf_compare_version's.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/result.hpp"
#include "os/env.hpp"
#include "os/fs.hpp"
#include "pkgconfig/module.hpp"
#include "pkgconfig/pc_parser.hpp"

namespace rdmi::pkgconfig {

/// Largest `.pc` file read; real ones are a few hundred bytes.
inline constexpr std::size_t kMaxPcFileBytes = 1U << 20U;

/// Deepest Requires chain resolve_requires() follows.
inline constexpr int kMaxRequiresDepth = 64;

/// Where a search directory came from.
enum class DirOrigin { pkg_config_path, pkg_config_libdir, default_dirs, extra };

/// "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "default", "extra".
std::string_view to_string(DirOrigin origin);

/// One directory of the search path.
struct SearchDir {
    std::string path;  ///< in-root directory
    DirOrigin origin = DirOrigin::default_dirs;
};

/// Which Requires fields resolve_requires() follows.
enum class RequiresScope { public_only, with_private };

/// Outcome of one Requires edge.
enum class RequireStatus {
    satisfied,         ///< found, and the version constraint holds
    version_mismatch,  ///< found, but the version constraint does not hold
    not_found,         ///< no `.pc` in the search path
    unreadable,        ///< only unreadable or malformed candidates (permission, garbage, ...)
    cycle,             ///< the module is already on the current Requires chain; not followed
    too_deep,          ///< deeper than kMaxRequiresDepth; not followed
};

/// "satisfied", "version_mismatch", "not_found", "unreadable", "cycle", "too_deep".
std::string_view to_string(RequireStatus status);

/// One Requires edge of the transitive closure, in depth-first order.
struct ResolvedRequire {
    std::string required_by;  ///< name of the module whose Requires lists it
    Requirement requirement;  ///< as written
    bool is_private = false;  ///< from Requires.private
    int depth = 1;            ///< 1 for the root module's own Requires
    RequireStatus status = RequireStatus::not_found;
    std::string version;  ///< version found ("" when not found)
    std::string pc_path;  ///< `.pc` found ("" when not found)
    std::string message;  ///< one line explaining any status but satisfied
};

/// The compiled-in default search directories of libpkgconf's default personality (the
/// unfiltered `pc_path` of its built-in `pkg-config` module; the personality's own list has
/// already dropped directories missing on the host, which is wrong under --root).
std::vector<std::string> default_search_dirs();

/// default_search_dirs() as pkg-config on a `machine` ("x86_64", "aarch64") has them: the
/// multiarch component ("<cpu>-linux-gnu") of each directory names that machine. libpkgconf's
/// list is the probing machine's; a root of another machine (a BlueField's Arm file system
/// inspected from the host, or the reverse) is searched as its own pkg-config would search it.
/// An empty or unknown machine, or one without such a component, leaves the list as it is.
std::vector<std::string> default_search_dirs_for(std::string_view machine);

/// pkg-config over an Fs. Holds references to `fs` and `env`: both must outlive it.
class PkgConfig {
  public:
    /// Builds the search path from `env` (PKG_CONFIG_PATH, PKG_CONFIG_LIBDIR, ...) followed by
    /// `extra_dirs` (in-root directories searched last). `machine`: the root's machine, whose
    /// default directories are searched (default_search_dirs_for); "" for the probing machine's.
    PkgConfig(const Fs& fs, const Env& env, std::vector<std::string> extra_dirs = {},
              std::string_view machine = {});

    /// The directories searched, in order, with their origin.
    [[nodiscard]] const std::vector<SearchDir>& search_path() const { return search_path_; }

    /// How `.pc` files are interpreted (sysroot from the environment).
    [[nodiscard]] const ParseOptions& parse_options() const { return options_; }

    /// The first module called `name` in the search path. Gap not_found ("<name>: not found
    /// in <dirs>"), or the reason of the first skipped candidate (malformed,
    /// permission_denied, ...) when only unusable candidates exist.
    [[nodiscard]] Result<Module> find(std::string_view name) const;

    /// Parses the `.pc` file at the in-root path `pc_path`, read through `via` when given (a
    /// reader of the file's directory, from Fs::dir_files).
    [[nodiscard]] Result<Module> load_file(std::string_view pc_path,
                                           const DirFiles* via = nullptr) const;

    /// load_file() for a pass over a directory of any size: a file read before comes from the
    /// cache, one not read before is parsed and not kept (100,000 kept modules are most of a
    /// run's memory).
    [[nodiscard]] Result<Module> load_file_once(std::string_view pc_path,
                                                const DirFiles* via = nullptr) const;

    /// False only when find(name) is sure to say not_found without reading a file: no search
    /// directory's listing holds a candidate file for `name`. Lets a caller that asks about
    /// every module of a large directory skip building and keeping a not-found message each.
    [[nodiscard]] bool may_find(std::string_view name) const;

    /// Every `*.pc` file (regular, or a link to one) in `dir`, sorted by name.
    [[nodiscard]] Result<std::vector<ModuleFile>> list_dir_modules(std::string_view dir) const;

    /// The transitive Requires of `module`: one entry per edge, depth first. Each module is
    /// expanded once; an edge back onto the current chain is reported as a cycle and not
    /// followed.
    [[nodiscard]] std::vector<ResolvedRequire> resolve_requires(
        const Module& module, RequiresScope scope = RequiresScope::public_only) const;

  private:
    [[nodiscard]] Result<Module> load_file_uncached(std::string_view pc_path,
                                                    const DirFiles* via) const;
    [[nodiscard]] Result<Module> find_uncached(std::string_view name) const;
    /// False only when the one listing of `dir` this run takes says `file` is not there; a
    /// directory that cannot be listed is searched file by file, as before.
    [[nodiscard]] bool may_hold(const std::string& dir, const std::string& file) const;

    const Fs& fs_;
    std::vector<SearchDir> search_path_;
    ParseOptions options_;
    bool try_uninstalled_ = true;
    // A run asks for the same modules and files many times (the stack, Requires chains, the
    // contract's listing); each is read and parsed once.
    mutable std::map<std::string, Result<Module>, std::less<>> parsed_;
    mutable std::map<std::string, Result<Module>, std::less<>> found_;
    // A search for N modules over D directories used to try 2*N*D files, nearly all absent,
    // and remember each miss: a pkg-config directory of 100,000 files took 40 s and a gigabyte.
    // Each directory is listed once instead; nullopt when it could not be listed.
    mutable std::map<std::string, std::optional<std::unordered_set<std::string>>, std::less<>>
        listings_;
};

}  // namespace rdmi::pkgconfig
