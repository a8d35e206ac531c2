// load_libarchive(): the loader's search re-done over the live file system, the trust rule, then
// dlopen and dlsym: the same road libibverbs takes, for a library only two commands need.
#include "bundle/libarchive_api.hpp"

#include <elf.h>

#include <optional>

#include "loader/library_trust.hpp"
#include "loader/load_closure.hpp"
#include "loader/loader_path.hpp"
#include "os/rooted_fs.hpp"

namespace rdmi::bundle {
namespace {

#if defined(__x86_64__)
constexpr std::uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr std::uint16_t kHostMachine = EM_AARCH64;
#else
constexpr std::uint16_t kHostMachine = 0;  // unknown: predict_loader_path matches any libc6 entry
#endif

// One line: the soname, why, and what provides it.
Gap libarchive_gap(GapReason reason, const std::string& why) {
    return Gap{reason, std::string(kLibarchiveSoname) + ": " + why +
                           " (gather and --root FILE.tar.gz need libarchive; Debian/Ubuntu: "
                           "libarchive13, RHEL/Fedora: libarchive)"};
}

// The host file the loader would map, refused unless it and its load closure are trusted.
Result<std::string> trusted_path(const Env& env) {
    auto fs = RootedFs::open("/");
    if (!fs) return libarchive_gap(GapReason::error, fs.gap().message);
    const LoadEnvironment load_env = current_load_environment(env);
    LoaderQuery query;
    query.soname = kLibarchiveSoname;
    query.machine = kHostMachine;
    query.elf_class = sizeof(void*) * 8;
    query.ld_library_path = load_env.ld_library_path;
    const LoaderPrediction predicted = predict_loader_path(*fs, query);
    if (!predicted.path)
        return libarchive_gap(GapReason::not_installed, "not found in the loader's search path");
    const std::string& path = *predicted.path;
    std::optional<Gap> gap = check_library_trust(path);
    if (!gap) gap = check_load_closure(path, LoadKind::library, load_env).gap;
    if (gap) return libarchive_gap(gap->reason, gap->message + "; not loaded");
    return path;
}

}  // namespace

Result<Libarchive> load_libarchive(const Env& env) {
    auto path = trusted_path(env);
    if (!path) return path.gap();
    auto library = DynamicLibrary::open(*path);
    if (!library) return libarchive_gap(GapReason::error, library.gap().message);
    LibarchiveApi api;
#define RDMI_LIBARCHIVE_BIND(name)                          \
    api.name = library->function<decltype(&::name)>(#name); \
    if (api.name == nullptr)                                \
        return libarchive_gap(GapReason::error, *path + " does not export " #name);
    RDMI_LIBARCHIVE_FUNCTIONS(RDMI_LIBARCHIVE_BIND)
#undef RDMI_LIBARCHIVE_BIND
    return Libarchive{std::move(library).value(), api, *path};
}

Result<const LibarchiveApi*> libarchive() {
    // Loaded at most once: a bundle written after a replayed one reuses the table.
    static const Result<Libarchive> kLoaded = load_libarchive(ProcessEnv());
    if (!kLoaded) return kLoaded.gap();
    return &kLoaded->api;
}

}  // namespace rdmi::bundle
