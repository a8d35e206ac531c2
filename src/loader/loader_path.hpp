// Predicting which file the dynamic loader would map for a soname, before anything is loaded:
// LD_LIBRARY_PATH, then /etc/ld.so.cache, then the default directories (ld.so(8)).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "os/fs.hpp"

namespace rdmi {

/// The Debian multiarch triplet of the machine this binary runs on (its libraries' directory
/// under /lib and /usr/lib), or empty where the build knows none.
#if defined(__x86_64__)
inline constexpr std::string_view kHostMultiarchTriplet = "x86_64-linux-gnu";
#elif defined(__aarch64__)
inline constexpr std::string_view kHostMultiarchTriplet = "aarch64-linux-gnu";
#else
inline constexpr std::string_view kHostMultiarchTriplet = "";
#endif

/// Largest /etc/ld.so.cache read (real ones are tens of KiB).
inline constexpr std::size_t kMaxLdCacheBytes = std::size_t{64} << 20U;

/// One entry of /etc/ld.so.cache (the "glibc-ld.so.cache1.1" format).
struct LdCacheEntry {
    std::string soname;       ///< "libz.so.1"
    std::string path;         ///< "/lib/x86_64-linux-gnu/libz.so.1"
    std::int32_t flags = 0;   ///< FLAG_ELF_LIBC6 | the architecture bits (0x0303 = x86-64)
    std::uint64_t hwcap = 0;  ///< non-zero for glibc-hwcaps and legacy hwcap subdirectories
};

/// An LdCacheEntry whose strings point into the cache's bytes, which must outlive it.
struct LdCacheView {
    std::string_view soname;
    std::string_view path;
    std::int32_t flags = 0;
    std::uint64_t hwcap = 0;
};

/// Parses the bytes of /etc/ld.so.cache (new format, either byte order). Never does I/O. A file
/// in another format or with offsets past its end is a Gap (malformed).
Result<std::vector<LdCacheEntry>> parse_ld_so_cache(std::string_view bytes);
/// parse_ld_so_cache() without a copy of each name and path (a cache lists about 1,400 of
/// each): for a caller that keeps `bytes` while it looks entries up.
Result<std::vector<LdCacheView>> parse_ld_so_cache_views(std::string_view bytes);

/// The cache flags ldconfig writes for libraries of this ELF machine and class (0x0303 for
/// x86-64, 0x0a03 for aarch64, 0x0003 for i386); 0 when unknown (then any libc6 entry matches).
std::int32_t ld_cache_flags(std::uint16_t machine, unsigned elf_class);

/// The loader's built-in directories for this machine: the Debian multiarch pair, the RPM
/// lib64 pair (64-bit only), then /lib and /usr/lib.
std::vector<std::string> default_library_dirs(std::uint16_t machine, unsigned elf_class);

/// The directories of an LD_LIBRARY_PATH value, split at ':' and ';' as ld.so does; with
/// `separators` ":", of a DT_RPATH or DT_RUNPATH, which ld.so splits at ':' only
/// (elf/dl-load.c decompose_rpath): a ';' there is part of a directory's name.
std::vector<std::string> split_library_path(std::string_view value,
                                            std::string_view separators = ":;");

/// Where the prediction found the file.
enum class LoaderSource { ld_library_path, ld_so_cache, default_dirs, none };

/// "LD_LIBRARY_PATH", "ld.so.cache", "default-dirs", "none".
std::string_view to_string(LoaderSource source);

/// What to predict.
struct LoaderQuery {
    std::string soname;                          ///< DT_SONAME of the library ("libx.so.3")
    std::uint16_t machine = 0;                   ///< e_machine of the library
    unsigned elf_class = 64;                     ///< 32 or 64
    std::optional<std::string> ld_library_path;  ///< the value in effect; nullopt when unset
};

/// The loader's choice, and how it was reached.
struct LoaderPrediction {
    std::string soname;
    std::optional<std::string> path;  ///< in-root path of the file it would map
    LoaderSource source = LoaderSource::none;
    std::vector<std::string> searched;  ///< every candidate looked at, in order
    std::vector<std::string> notes;     ///< e.g. "/etc/ld.so.cache: not found"
    /// Why /etc/ld.so.cache was not consulted ("the root has no /etc/ld.so.cache", or the
    /// parser's reason); empty when it was read.
    std::string cache_unread;
};

/// Follows the loader's search order over `fs` (rooted: the root's own cache and directories).
/// A soname containing '/' is a path and is taken as is. RPATH/RUNPATH of the application and
/// hwcaps subdirectories are not modelled (the notes say so when they could matter).
LoaderPrediction predict_loader_path(const Fs& fs, const LoaderQuery& query);

}  // namespace rdmi
