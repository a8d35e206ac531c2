// PkgConfig: the search path and the search, with every read through Fs.
#include "pkgconfig/pkgconfig.hpp"

#include <libpkgconf/libpkgconf.h>

#include <memory>

namespace rdmi::pkgconfig {
namespace {

constexpr std::string_view kPcSuffix = ".pc";

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// pkgconf splits with strtok(':'), which drops empty entries.
std::vector<std::string> split_path_list(std::string_view list) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= list.size()) {
        auto next = list.find(':', pos);
        if (next == std::string_view::npos) next = list.size();
        if (next > pos) out.push_back(join_path(list.substr(pos, next - pos), ""));
        pos = next + 1;
    }
    return out;
}

void append_dirs(std::vector<SearchDir>& out, const std::vector<std::string>& dirs,
                 DirOrigin origin) {
    for (const auto& dir : dirs) out.push_back(SearchDir{dir, origin});
}

std::string joined_dirs(const std::vector<SearchDir>& dirs) {
    std::string out;
    for (const auto& dir : dirs) out += (out.empty() ? "" : ":") + dir.path;
    return out;
}

}  // namespace

std::string_view to_string(DirOrigin origin) {
    switch (origin) {
        case DirOrigin::pkg_config_path:
            return "PKG_CONFIG_PATH";
        case DirOrigin::pkg_config_libdir:
            return "PKG_CONFIG_LIBDIR";
        case DirOrigin::default_dirs:
            return "default";
        case DirOrigin::extra:
            return "extra";
    }
    return "default";
}

std::string_view to_string(RequireStatus status) {
    switch (status) {
        case RequireStatus::satisfied:
            return "satisfied";
        case RequireStatus::version_mismatch:
            return "version_mismatch";
        case RequireStatus::not_found:
            return "not_found";
        case RequireStatus::unreadable:
            return "unreadable";
        case RequireStatus::cycle:
            return "cycle";
        case RequireStatus::too_deep:
            return "too_deep";
    }
    return "not_found";
}

std::vector<std::string> default_search_dirs() {
    // The built-in `pkg-config` module's pc_path is PKG_DEFAULT_PATH as compiled (on Debian
    // x86_64 the six /usr/local and /usr dirs); the personality's dir_list was built with
    // stat() filtering on the host, so it lacks the /usr/local dirs that do not exist here.
    if (const pkgconf_pkg_t* builtin = pkgconf_builtin_pkg_get("pkg-config")) {
        const pkgconf_node_t* node = nullptr;
        PKGCONF_FOREACH_LIST_ENTRY(builtin->vars.head, node) {
            const auto* tuple = static_cast<const pkgconf_tuple_t*>(node->data);
            if (tuple->key != nullptr && std::string_view(tuple->key) == "pc_path" &&
                tuple->value != nullptr) {
                return split_path_list(tuple->value);
            }
        }
    }
    std::vector<std::string> out;
    const pkgconf_cross_personality_t* personality = pkgconf_cross_personality_default();
    const pkgconf_node_t* node = nullptr;
    PKGCONF_FOREACH_LIST_ENTRY(personality->dir_list.head, node) {
        const auto* path = static_cast<const pkgconf_path_t*>(node->data);
        if (path->path != nullptr) out.emplace_back(path->path);
    }
    return out;
}

std::vector<std::string> default_search_dirs_for(std::string_view machine) {
    auto dirs = default_search_dirs();
    if (machine.empty()) return dirs;
    const std::string triplet = std::string(machine) + "-linux-gnu";
    for (auto& dir : dirs) {
        // The one component of the form "<cpu>-linux-gnu<abi>" (x86_64-linux-gnu,
        // aarch64-linux-gnu, arm-linux-gnueabihf, ...) is the compiled-in machine's.
        std::size_t start = 0;
        while (start < dir.size()) {
            std::size_t end = dir.find('/', start);
            if (end == std::string::npos) end = dir.size();
            const std::string_view component(dir.data() + start, end - start);
            if (const auto at = component.find("-linux-gnu");
                at != std::string_view::npos && at > 0) {
                dir.replace(start, end - start, triplet);
                break;
            }
            start = end + 1;
        }
    }
    return dirs;
}

PkgConfig::PkgConfig(const Fs& fs, const Env& env, std::vector<std::string> extra_dirs,
                     std::string_view machine)
    : fs_(fs) {
    if (auto path = env.get("PKG_CONFIG_PATH"))
        append_dirs(search_path_, split_path_list(*path), DirOrigin::pkg_config_path);
    if (auto libdir = env.get("PKG_CONFIG_LIBDIR")) {
        append_dirs(search_path_, split_path_list(*libdir), DirOrigin::pkg_config_libdir);
    } else {
        append_dirs(search_path_, default_search_dirs_for(machine), DirOrigin::default_dirs);
    }
    for (auto& dir : extra_dirs)
        search_path_.push_back(SearchDir{join_path(dir, ""), DirOrigin::extra});

    // The pkg-config command reads these in cli/main.c, not libpkgconf: same meaning here.
    if (auto sysroot = env.get("PKG_CONFIG_SYSROOT_DIR")) {
        options_.sysroot = *sysroot;
        auto destdir = env.get("DESTDIR");
        if (destdir && *destdir == *sysroot) options_.fdo_sysroot_rules = true;
    }
    if (env.get("PKG_CONFIG_FDO_SYSROOT_RULES")) options_.fdo_sysroot_rules = true;
    try_uninstalled_ = !env.get("PKG_CONFIG_DISABLE_UNINSTALLED").has_value();
}

Result<Module> PkgConfig::load_file(std::string_view pc_path, const DirFiles* via) const {
    auto hit = parsed_.find(pc_path);
    if (hit == parsed_.end())
        hit = parsed_.emplace(pc_path, load_file_uncached(pc_path, via)).first;
    return hit->second;
}

Result<Module> PkgConfig::find(std::string_view name) const {
    auto hit = found_.find(name);
    if (hit == found_.end()) hit = found_.emplace(name, find_uncached(name)).first;
    return hit->second;
}

Result<Module> PkgConfig::load_file_once(std::string_view pc_path, const DirFiles* via) const {
    if (auto hit = parsed_.find(pc_path); hit != parsed_.end()) return hit->second;
    return load_file_uncached(pc_path, via);
}

bool PkgConfig::may_find(std::string_view name) const {
    // Anything find() does not search by name (a path, an invalid name) is left to find().
    if (name.empty() || ends_with(name, kPcSuffix) || name.find('/') != std::string_view::npos ||
        name.find('\0') != std::string_view::npos) {
        return true;
    }
    if (auto hit = found_.find(name); hit != found_.end())
        return hit->second.ok() || hit->second.gap().reason != GapReason::not_found;
    const std::string plain = std::string(name) + std::string(kPcSuffix);
    const std::string uninstalled = std::string(name) + "-uninstalled" + std::string(kPcSuffix);
    for (const auto& dir : search_path_) {
        if (try_uninstalled_ && may_hold(dir.path, uninstalled)) return true;
        if (may_hold(dir.path, plain)) return true;
    }
    return false;
}

Result<Module> PkgConfig::load_file_uncached(std::string_view pc_path, const DirFiles* via) const {
    auto bytes = via != nullptr ? via->read_file(pc_path, kMaxPcFileBytes)
                                : fs_.read_file(pc_path, kMaxPcFileBytes);
    if (!bytes) return bytes.gap();
    return parse_pc(*bytes, pc_path, options_);
}

Result<Module> PkgConfig::find_uncached(std::string_view name) const {
    if (ends_with(name, kPcSuffix)) return load_file(name);
    const std::string module_name(name);
    if (name.empty() || name.find('/') != std::string_view::npos ||
        name.find('\0') != std::string_view::npos) {
        return make_gap(GapReason::not_found, "'" + module_name + "': not a module name");
    }
    std::vector<std::string> skipped;
    std::optional<GapReason> first_reason;
    for (const auto& dir : search_path_) {
        std::vector<std::pair<std::string, bool>> candidates;
        if (try_uninstalled_)
            candidates.emplace_back(join_path(dir.path, module_name + "-uninstalled.pc"), true);
        candidates.emplace_back(join_path(dir.path, module_name + ".pc"), false);
        for (const auto& [path, uninstalled] : candidates) {
            if (!may_hold(dir.path, path.substr(path.rfind('/') + 1))) continue;
            auto parsed = load_file(path);
            if (parsed.ok()) {
                Module module = std::move(parsed).value();
                module.name = module_name;
                module.uninstalled = uninstalled;
                std::vector<std::string> warnings;
                for (auto& skip : skipped) warnings.push_back("skipped " + skip);
                warnings.insert(warnings.end(), module.warnings.begin(), module.warnings.end());
                module.warnings = std::move(warnings);
                return module;
            }
            if (parsed.gap().reason == GapReason::not_found) continue;
            if (!first_reason) first_reason = parsed.gap().reason;
            skipped.push_back(parsed.gap().message);
        }
    }
    const std::string where = search_path_.empty() ? std::string("the search path is empty")
                                                   : "searched " + joined_dirs(search_path_);
    if (first_reason) {
        std::string msg = module_name + ": no usable " + module_name + ".pc (";
        for (std::size_t i = 0; i < skipped.size(); ++i) msg += (i == 0 ? "" : "; ") + skipped[i];
        return make_gap(*first_reason, msg + "); " + where);
    }
    return make_gap(GapReason::not_found,
                    module_name + ": " + module_name + ".pc not found; " + where);
}

bool PkgConfig::may_hold(const std::string& dir, const std::string& file) const {
    auto hit = listings_.find(dir);
    if (hit == listings_.end()) {
        std::optional<std::unordered_set<std::string>> names;
        if (auto entries = fs_.list_dir(dir)) {
            names.emplace();
            names->reserve(entries->size());
            for (auto& entry : *entries) names->insert(std::move(entry.name));
        } else if (entries.gap().reason == GapReason::not_found) {
            names.emplace();  // a missing directory holds nothing
        }
        hit = listings_.emplace(dir, std::move(names)).first;
    }
    return !hit->second || hit->second->contains(file);
}

Result<std::vector<ModuleFile>> PkgConfig::list_dir_modules(std::string_view dir) const {
    auto entries = fs_.list_dir(dir);
    if (!entries) return entries.gap();
    std::vector<ModuleFile> out;
    for (const auto& entry : *entries) {
        if (entry.name.size() <= kPcSuffix.size() || !ends_with(entry.name, kPcSuffix)) continue;
        const std::string path = join_path(dir, entry.name);
        FileType type = entry.type;
        if (type == FileType::symlink || type == FileType::other) {
            auto info = fs_.stat(path, true);
            type = info ? info->type : FileType::other;
        }
        if (type != FileType::regular) continue;
        out.push_back(ModuleFile{entry.name.substr(0, entry.name.size() - kPcSuffix.size()), path});
    }
    return out;
}

}  // namespace rdmi::pkgconfig
