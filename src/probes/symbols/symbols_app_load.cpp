// Whether the loader would find the audited library for an application (its DT_RPATH or
// DT_RUNPATH, LD_LIBRARY_PATH, ld.so.cache, the default directories, in ld.so(8)'s order), and
// what would make it find the library when it would not.
#include "loader/elf_dynamic.hpp"
#include "probes/symbols/symbols_parts.hpp"

namespace rdmi::symbols {
namespace {

bool is_regular(const Fs& fs, const std::string& path) {
    auto info = fs.stat(path);
    return info.ok() && info->type == FileType::regular;
}

// $ORIGIN is the application's own directory, a path on this machine (where the user named
// it); any other absolute entry is a directory of the system the application runs on (the
// root). Anything else ($LIB, $PLATFORM, a relative entry) depends on how the program is run.
struct SearchDir {
    std::string dir;
    const Fs* fs = nullptr;
};

std::vector<SearchDir> search_dirs(const std::string& value, const std::string& app_dir,
                                   const Fs& root_fs, const Fs& user_fs,
                                   std::vector<std::string>& notes) {
    std::vector<SearchDir> out;
    if (value.empty()) return out;
    for (const auto& entry : split_library_path(value, ":")) {
        std::optional<std::string> below_origin;
        for (std::string_view origin : {"$ORIGIN", "${ORIGIN}"}) {
            if (entry.starts_with(origin)) below_origin = entry.substr(origin.size());
        }
        if (below_origin && below_origin->find('$') == std::string::npos) {
            out.push_back({app_dir + *below_origin, &user_fs});
        } else if (!below_origin && !entry.empty() && entry.front() == '/' &&
                   entry.find('$') == std::string::npos) {
            out.push_back({entry, &root_fs});
        } else {
            notes.push_back("search path entry '" + entry +
                            "' depends on how the program is run; not followed");
        }
    }
    return out;
}

std::optional<SearchDir> find_in(const std::vector<SearchDir>& dirs, const std::string& soname,
                                 std::vector<std::string>& searched) {
    for (const auto& d : dirs) {
        const std::string candidate = join_path(d.dir, soname);
        searched.push_back(candidate);
        if (is_regular(*d.fs, candidate)) return SearchDir{candidate, d.fs};
    }
    return std::nullopt;
}

// Where the audited install keeps the library: its module's libdir (in the root), or the
// directory of the --lib file (on this machine).
std::string install_dir_holding(const ProbeContext& ctx, const Fs& user_fs,
                                const SymbolsFacts& facts, const std::string& soname) {
    if (!facts.libdir.empty() && is_regular(ctx.fs, join_path(facts.libdir, soname)))
        return facts.libdir;
    const std::string beside(dir_name(facts.library.path));
    const Fs& fs = facts.module.empty() ? user_fs : ctx.fs;
    if (!beside.empty() && is_regular(fs, join_path(beside, soname))) return beside;
    return {};
}

}  // namespace

std::optional<AppLoadFacts> predict_app_load(const ProbeContext& ctx, const Fs& user_fs,
                                             const ElfImage& library, const SymbolsFacts& facts,
                                             std::string_view app_bytes) {
    auto dynamic = read_dynamic_info(app_bytes);
    // An object, an archive, a foreign or static file: nothing is loaded for it as it is.
    if (!dynamic || !dynamic->has_dynamic) return std::nullopt;
    AppLoadFacts load;
    load.rpath = dynamic->rpath;
    load.runpath = dynamic->runpath;
    load.has_runpath = dynamic->has_runpath;
    load.bind_now = dynamic->bind_now;
    const std::string soname = facts.library.soname.empty()
                                   ? std::string(base_name(facts.library.path))
                                   : facts.library.soname;
    const std::string app_dir(dir_name(*facts.application));
    // DT_RPATH is searched before LD_LIBRARY_PATH, and only without a DT_RUNPATH; DT_RUNPATH
    // after LD_LIBRARY_PATH, before the cache.
    const auto rpath = dynamic->has_runpath
                           ? std::vector<SearchDir>{}
                           : search_dirs(dynamic->rpath, app_dir, ctx.fs, user_fs, load.notes);
    const auto runpath = search_dirs(dynamic->runpath, app_dir, ctx.fs, user_fs, load.notes);
    for (const auto& needed : dynamic->needed) {
        if (needed != soname) continue;
        AppLibraryLookup lookup;
        lookup.soname = needed;
        LoaderQuery query{needed, library.machine, library.elf_class, std::nullopt};
        // The host's environment says nothing about how programs on a mounted root are started.
        if (ctx.live()) query.ld_library_path = ctx.env.get("LD_LIBRARY_PATH");
        const Fs* found_on = &ctx.fs;
        if (auto hit = find_in(rpath, needed, lookup.searched)) {
            lookup.path = hit->dir;
            lookup.via = "DT_RPATH";
            found_on = hit->fs;
        } else {
            const LoaderPrediction prediction = predict_loader_path(ctx.fs, query);
            lookup.cache_unread = prediction.cache_unread;
            if (prediction.path && prediction.source == LoaderSource::ld_library_path) {
                lookup.searched.insert(lookup.searched.end(), prediction.searched.begin(),
                                       prediction.searched.end());
                lookup.path = prediction.path;
                lookup.via = std::string(to_string(prediction.source));
            } else if (auto in_runpath = find_in(runpath, needed, lookup.searched)) {
                lookup.path = in_runpath->dir;
                lookup.via = "DT_RUNPATH";
                found_on = in_runpath->fs;
            } else {
                lookup.searched.insert(lookup.searched.end(), prediction.searched.begin(),
                                       prediction.searched.end());
                lookup.path = prediction.path;
                if (prediction.path) lookup.via = std::string(to_string(prediction.source));
            }
        }
        // The verdict is on the audited file: say so when the application would get another.
        if (lookup.path) {
            const std::string real = found_on->real_path(*lookup.path).value_or(*lookup.path);
            if (real != facts.library.real_path) {
                load.notes.push_back("the loader would map " + real +
                                     " for the application, not "
                                     "the audited " +
                                     facts.library.real_path);
            }
        }
        if (!lookup.path) {
            const std::string dir = install_dir_holding(ctx, user_fs, facts, needed);
            lookup.would_find =
                dir.empty() ? "no " + needed + " in the audited install: install it"
                            : needed + " is in " + dir + ": name that directory in a file of " +
                                  "/etc/ld.so.conf.d/ and run ldconfig, or link the application " +
                                  "with -Wl,-rpath," + dir +
                                  " (or run it with LD_LIBRARY_PATH=" + dir + ")";
        }
        load.libraries.push_back(std::move(lookup));
    }
    return load;
}

}  // namespace rdmi::symbols
