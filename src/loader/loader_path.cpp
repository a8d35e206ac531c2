// The loader's search order (ld.so(8), glibc elf/dl-load.c and elf/dl-cache.c), predicted.
#include "loader/loader_path.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>

namespace rdmi {
namespace {

// glibc sysdeps/generic/dl-cache.h.
constexpr std::string_view kCacheMagic = "glibc-ld.so.cache1.1";
constexpr std::size_t kHeaderSize = 48;  // magic+version, nlibs, len_strings, flags, ext, unused
constexpr std::size_t kEntrySize = 24;   // flags, key, value, osversion, hwcap
constexpr std::int32_t kFlagElfLibc6 = 0x0003;
constexpr std::int32_t kFlagTypeMask = 0x00ff;
// The longest soname or path an entry may name: ldconfig writes paths, at most PATH_MAX
// (4096 bytes with the NUL).
constexpr std::size_t kMaxCacheString = 4095;
// How many hwcaps variants of one soname get a note of their own.
constexpr std::size_t kMaxVariantNotes = 8;

class CacheReader {
  public:
    CacheReader(std::string_view bytes, bool big_endian) : bytes_(bytes), big_(big_endian) {}

    [[nodiscard]] std::uint64_t read(std::size_t offset, std::size_t width) const {
        std::uint64_t value = 0;
        for (std::size_t i = 0; i < width; ++i) {
            const auto byte =
                static_cast<std::uint8_t>(bytes_[offset + (big_ ? i : width - 1 - i)]);
            value = (value << 8U) | byte;
        }
        return value;
    }

    // A NUL-terminated string at `offset`, or nullopt when it runs past the end or past
    // kMaxCacheString. Searched no further than that: a hostile cache of a million entries that
    // all point into one long run without a NUL would otherwise be read a million times over.
    [[nodiscard]] std::optional<std::string_view> string_at(std::uint64_t offset) const {
        if (offset >= bytes_.size()) return std::nullopt;
        const auto start = static_cast<std::size_t>(offset);
        const std::size_t span = std::min(bytes_.size() - start, kMaxCacheString + 1);
        const void* end = std::memchr(bytes_.data() + start, '\0', span);
        if (end == nullptr) return std::nullopt;
        return bytes_.substr(start, static_cast<std::size_t>(static_cast<const char*>(end) -
                                                             (bytes_.data() + start)));
    }

  private:
    std::string_view bytes_;
    bool big_;
};

bool host_is_big_endian() {
    const std::uint16_t probe = 1;
    std::uint8_t first = 0;
    std::memcpy(&first, &probe, 1);
    return first == 0;
}

std::string triplet(std::uint16_t machine, unsigned elf_class) {
    switch (machine) {
        case EM_X86_64:
            return elf_class == 32 ? "x86_64-linux-gnux32" : "x86_64-linux-gnu";
        case EM_386:
            return "i386-linux-gnu";
        case EM_AARCH64:
            return "aarch64-linux-gnu";
        case EM_PPC64:
            return "powerpc64le-linux-gnu";
        case EM_S390:
            return "s390x-linux-gnu";
        case EM_RISCV:
            return "riscv64-linux-gnu";
        default:
            return {};
    }
}

bool is_regular(const Fs& fs, const std::string& path) {
    auto info = fs.stat(path);
    return info.ok() && info->type == FileType::regular;
}

}  // namespace

Result<std::vector<LdCacheView>> parse_ld_so_cache_views(std::string_view bytes) {
    if (bytes.size() < kHeaderSize || bytes.substr(0, kCacheMagic.size()) != kCacheMagic) {
        if (bytes.starts_with("ld.so-1.7.0")) {
            return make_gap(GapReason::malformed,
                            "old ld.so-1.7.0 cache format (glibc < 2.32) is not read");
        }
        return make_gap(GapReason::malformed, "not a glibc-ld.so.cache1.1 file");
    }
    // The flags byte records the writer's byte order: 2 little, 3 big, 0 unknown (host's).
    const auto order = static_cast<std::uint8_t>(bytes[28]);
    const bool big = order == 3 || (order == 0 && host_is_big_endian());
    const CacheReader reader(bytes, big);
    const std::uint64_t nlibs = reader.read(20, 4);
    if (nlibs > (bytes.size() - kHeaderSize) / kEntrySize) {
        return make_gap(GapReason::malformed, std::to_string(nlibs) + " entries do not fit in " +
                                                  std::to_string(bytes.size()) + " bytes");
    }
    std::vector<LdCacheView> entries;
    entries.reserve(static_cast<std::size_t>(nlibs));
    for (std::size_t i = 0; i < nlibs; ++i) {
        const std::size_t at = kHeaderSize + i * kEntrySize;
        LdCacheView entry;
        entry.flags = static_cast<std::int32_t>(reader.read(at, 4));
        // String offsets are relative to the start of the new-format header, here the file.
        auto key = reader.string_at(reader.read(at + 4, 4));
        auto value = reader.string_at(reader.read(at + 8, 4));
        if (!key || !value) {
            return make_gap(GapReason::malformed,
                            "entry " + std::to_string(i) +
                                " names a string that runs past the end of the file or past " +
                                std::to_string(kMaxCacheString) + " bytes");
        }
        entry.soname = *key;
        entry.path = *value;
        entry.hwcap = reader.read(at + 16, 8);
        entries.push_back(entry);
    }
    return entries;
}

Result<std::vector<LdCacheEntry>> parse_ld_so_cache(std::string_view bytes) {
    auto views = parse_ld_so_cache_views(bytes);
    if (!views) return views.gap();
    std::vector<LdCacheEntry> entries;
    entries.reserve(views->size());
    for (const auto& view : *views) {
        entries.push_back(
            LdCacheEntry{std::string(view.soname), std::string(view.path), view.flags, view.hwcap});
    }
    return entries;
}

std::int32_t ld_cache_flags(std::uint16_t machine, unsigned elf_class) {
    switch (machine) {
        case EM_X86_64:
            return elf_class == 32 ? 0x0803 : 0x0303;
        case EM_386:
            return kFlagElfLibc6;
        case EM_AARCH64:
            return elf_class == 32 ? 0x0b03 : 0x0a03;
        case EM_PPC64:
            return 0x0503;
        case EM_S390:
            return elf_class == 64 ? 0x0403 : kFlagElfLibc6;
        case EM_RISCV:
            return elf_class == 64 ? 0x1003 : 0;
        default:
            return 0;
    }
}

std::vector<std::string> default_library_dirs(std::uint16_t machine, unsigned elf_class) {
    std::vector<std::string> dirs;
    if (const std::string multiarch = triplet(machine, elf_class); !multiarch.empty()) {
        dirs.push_back("/lib/" + multiarch);
        dirs.push_back("/usr/lib/" + multiarch);
    }
    if (elf_class == 64) {
        dirs.emplace_back("/lib64");
        dirs.emplace_back("/usr/lib64");
    }
    dirs.emplace_back("/lib");
    dirs.emplace_back("/usr/lib");
    return dirs;
}

std::vector<std::string> split_library_path(std::string_view value, std::string_view separators) {
    std::vector<std::string> dirs;
    std::size_t pos = 0;
    while (pos <= value.size()) {
        std::size_t end = value.find_first_of(separators, pos);
        if (end == std::string_view::npos) end = value.size();
        std::string dir(value.substr(pos, end - pos));
        while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        dirs.push_back(std::move(dir));
        pos = end + 1;
    }
    return dirs;
}

std::string_view to_string(LoaderSource source) {
    switch (source) {
        case LoaderSource::ld_library_path:
            return "LD_LIBRARY_PATH";
        case LoaderSource::ld_so_cache:
            return "ld.so.cache";
        case LoaderSource::default_dirs:
            return "default-dirs";
        case LoaderSource::none:
            break;
    }
    return "none";
}

LoaderPrediction predict_loader_path(const Fs& fs, const LoaderQuery& query) {
    LoaderPrediction out;
    out.soname = query.soname;
    auto found = [&](const std::string& path, LoaderSource source) {
        out.path = path;
        out.source = source;
        return out;
    };
    if (query.soname.find('/') != std::string::npos) {
        out.searched.push_back(query.soname);
        if (is_regular(fs, query.soname)) return found(query.soname, LoaderSource::none);
        out.notes.push_back(query.soname + ": not a regular file");
        return out;
    }
    if (query.ld_library_path) {
        for (const auto& dir : split_library_path(*query.ld_library_path)) {
            // An empty or relative entry is relative to the application's working directory,
            // which a prediction cannot know.
            if (dir.empty() || dir.front() != '/') {
                out.notes.push_back("LD_LIBRARY_PATH entry '" + dir +
                                    "' is relative to the working directory; not followed");
                continue;
            }
            const std::string candidate = join_path(dir, query.soname);
            out.searched.push_back(candidate);
            if (is_regular(fs, candidate)) return found(candidate, LoaderSource::ld_library_path);
        }
    }
    auto cache = fs.read_file("/etc/ld.so.cache", kMaxLdCacheBytes);
    if (!cache) {
        out.notes.push_back("/etc/ld.so.cache: " + cache.gap().message);
        out.cache_unread = cache.gap().reason == GapReason::not_found
                               ? "there is no /etc/ld.so.cache (ldconfig has not run)"
                               : "/etc/ld.so.cache: " + cache.gap().message;
    } else if (auto entries = parse_ld_so_cache_views(*cache); !entries) {
        // Views into `cache`, not copies: a hostile cache's entries may all name the same long
        // string, and copying it once per entry took gigabytes.
        out.notes.push_back("/etc/ld.so.cache: " + entries.gap().message);
        out.cache_unread = "/etc/ld.so.cache: " + entries.gap().message;
    } else {
        const std::int32_t want = ld_cache_flags(query.machine, query.elf_class);
        const LdCacheView* pick = nullptr;
        std::size_t variants = 0;
        for (const auto& entry : *entries) {
            if (entry.soname != query.soname) continue;
            const bool fits =
                want != 0 ? entry.flags == want : (entry.flags & kFlagTypeMask) == kFlagElfLibc6;
            if (!fits) continue;
            // glibc-hwcaps entries win only on CPUs that support them; the baseline is the
            // prediction, and a note says an optimised copy exists. A few at most: glibc has
            // four x86-64 levels, and a hostile cache could list one name a million times.
            if (entry.hwcap != 0) {
                if (++variants <= kMaxVariantNotes) {
                    out.notes.push_back("ld.so.cache also lists " + std::string(entry.path) +
                                        " (an hwcaps variant the loader may prefer)");
                }
                continue;
            }
            if (pick == nullptr) pick = &entry;
        }
        if (variants > kMaxVariantNotes) {
            out.notes.push_back("ld.so.cache lists " + std::to_string(variants - kMaxVariantNotes) +
                                " more hwcaps variants of " + query.soname);
        }
        if (pick != nullptr) {
            const std::string path(pick->path);
            out.searched.push_back(path);
            if (is_regular(fs, path)) return found(path, LoaderSource::ld_so_cache);
            out.notes.push_back("ld.so.cache names " + path + ", which is missing");
        }
    }
    for (const auto& dir : default_library_dirs(query.machine, query.elf_class)) {
        const std::string candidate = join_path(dir, query.soname);
        out.searched.push_back(candidate);
        if (is_regular(fs, candidate)) return found(candidate, LoaderSource::default_dirs);
    }
    return out;
}

}  // namespace rdmi
