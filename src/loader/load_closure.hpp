// The whole set of files the dynamic loader would map for one dlopen (or one exec), predicted
// before anything runs, and the trust rule applied to every file and every directory searched.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/gap.hpp"
#include "loader/trust_cache.hpp"
#include "os/env.hpp"

namespace rdmi {

/// The process state that steers the loader's search (ld.so(8)).
struct LoadEnvironment {
    /// LD_LIBRARY_PATH as the loader will use it: nullopt when unset or ignored (secure mode).
    std::optional<std::string> ld_library_path;
    bool secure = false;                      ///< AT_SECURE: set-user-ID or capabilities
    std::string platform;                     ///< what $PLATFORM expands to (AT_PLATFORM)
    std::vector<std::string> lib_expansions;  ///< what $LIB may expand to (each is checked)
    /// DT_RPATH directories of the main program (when it has no DT_RUNPATH), expanded.
    std::vector<std::string> main_rpath;
    /// Sonames and paths of the objects already in the process: ld.so reuses them.
    std::set<std::string> loaded;
    std::string cwd;  ///< for relative search entries ("" in LD_LIBRARY_PATH means ".")
    /// What $ORIGIN expands to in LD_LIBRARY_PATH: the real directory of the running program
    /// (for LoadKind::program, the program's own is used instead); "" drops such entries.
    std::string main_origin;
    /// libibverbs' provider lists from the environment (honoured only when uid == euid).
    std::optional<std::string> rdmav_drivers;
    std::optional<std::string> ibv_drivers;
};

/// The environment of this process, for a dlopen done by it (or by a forked child).
LoadEnvironment current_load_environment(const Env& env);

/// The environment of an external program run by run_process(): a fresh process whose
/// environment holds no loader variables.
LoadEnvironment program_load_environment();

/// What is being loaded.
enum class LoadKind {
    library,  ///< a shared object dlopen'ed by path
    ibverbs,  ///< libibverbs: also the providers it loads (config directory, RDMAV_DRIVERS)
    program,  ///< an executable run with a clean environment: its DT_NEEDED closure
};

/// The verdict on one load.
struct ClosureVerdict {
    std::vector<std::string> members;  ///< every file the loader would map, the root first
    std::optional<Gap> gap;            ///< reason `untrusted` (or `malformed`): do not load
};

/// Where a libibverbs image says its providers are: the strings rdma-core compiles in
/// (libibverbs/dynamic_driver.c), found among the image's NUL-terminated strings of 4 to 4096
/// bytes; when several qualify, the last one in the file wins.
struct IbverbsProviderStrings {
    /// The last string that starts with '/' and ends with "/libibverbs.d".
    std::string config_dir = "/etc/libibverbs.d";
    /// What follows "lib%s" in the last string that holds "lib%s-rdmav" and ends with ".so"
    /// ("-rdmav34.so"); "" when there is none (this libibverbs loads no providers).
    std::string suffix;
    /// The directory before "/lib%s" of the last such string that starts with '/'.
    std::string provider_dir;
};
/// Reads IbverbsProviderStrings from the bytes of a libibverbs file.
IbverbsProviderStrings ibverbs_provider_strings(std::string_view image);

/// Resolves the DT_NEEDED closure of the host file `path` as ld.so would (DT_RPATH of the
/// loader chain, LD_LIBRARY_PATH, DT_RUNPATH with $ORIGIN/$LIB/$PLATFORM, /etc/ld.so.cache,
/// the default directories; glibc-hwcaps subdirectories) and checks: every member passes
/// check_library_trust(), every directory searched up to and including the one that wins
/// passes check_search_dir_trust(). The first failure is the Gap; its message names the file
/// or directory, what needs it, and the fix.
/// With a `cache`, the files' facts it holds are used and what is learnt is added.
ClosureVerdict check_load_closure(const std::string& path, LoadKind kind,
                                  const LoadEnvironment& env, TrustCache* cache = nullptr);

}  // namespace rdmi
