// check_load_closure: a breadth-first walk over DT_NEEDED in the loader's order (glibc
// elf/dl-load.c _dl_map_object, elf/dl-cache.c; rdma-core libibverbs/dynamic_driver.c for the
// providers). The walk errs towards checking more: every $LIB spelling, every glibc-hwcaps
// subdirectory and every ld.so.cache entry for a name count, whichever the CPU would pick.
#include "loader/load_closure.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <span>

#include "loader/elf_dynamic.hpp"
#include "loader/library_trust.hpp"
#include "loader/loader_path.hpp"
#include "os/errno_gap.hpp"
#include "os/fs.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

constexpr std::size_t kMaxObjectBytes = std::size_t{2} << 30U;  // larger than any real library
constexpr std::size_t kMaxMembers = 4096;                       // a closure is tens of files

// A private mapping of a whole regular file, writable because libelf may write to what it
// reads (elf_memory); a write would change this process's copy only, and none is made for a
// file in the host's byte order, so no page is copied.
class Mapping {
  public:
    static Result<std::unique_ptr<Mapping>> open(const std::string& path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) return gap_from_errno(path, errno);
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            return make_gap(GapReason::malformed, path + ": not a regular file");
        }
        const auto size = static_cast<std::size_t>(st.st_size);
        if (size > kMaxObjectBytes) {
            ::close(fd);
            return make_gap(GapReason::malformed, path + ": larger than 2 GiB");
        }
        void* base =
            size == 0 ? nullptr : ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        ::close(fd);
        if (base == MAP_FAILED) return gap_from_errno(path, errno);
        return std::unique_ptr<Mapping>(new Mapping(base, size));
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    ~Mapping() {
        if (base_ != nullptr) ::munmap(base_, size_);
    }
    [[nodiscard]] std::string_view bytes() const {
        return {static_cast<const char*>(base_), size_};
    }
    /// The same bytes, for libelf.
    [[nodiscard]] std::span<char> image() const { return {static_cast<char*>(base_), size_}; }

  private:
    Mapping(void* base, std::size_t size) : base_(base), size_(size) {}
    void* base_;
    std::size_t size_;
};

Result<DynamicInfo> read_info(const std::string& path) {
    auto map = Mapping::open(path);
    if (!map) return map.gap();
    const auto image = (*map)->image();
    auto info = read_dynamic_info(std::string_view(image.data(), image.size()));
    if (!info) return make_gap(GapReason::malformed, path + ": " + info.gap().message);
    return info;
}

bool is_regular(TrustCache& cache, const std::string& path) {
    const TrustCache::Stat answer = cache.stat(path);
    return answer.err == 0 && S_ISREG(answer.st.st_mode);
}

bool is_directory(TrustCache& cache, const std::string& path) {
    const TrustCache::Stat answer = cache.stat(path);
    return answer.err == 0 && S_ISDIR(answer.st.st_mode);
}

std::string absolute(const std::string& path, const std::string& cwd) {
    if (!path.empty() && path.front() == '/') return path;
    if (path.empty() || path == ".") return cwd;
    return join_path(cwd, path);
}

// "$ORIGIN", "${ORIGIN}", ... replaced; one result per spelling of $LIB.
std::vector<std::string> expand_tokens(const std::string& entry, const std::string& origin,
                                       const LoadEnvironment& env) {
    std::vector<std::string> out{""};
    std::size_t pos = 0;
    while (pos < entry.size()) {
        if (entry[pos] != '$') {
            for (auto& o : out) o.push_back(entry[pos]);
            ++pos;
            continue;
        }
        std::string name;
        std::size_t next = pos + 1;
        if (next < entry.size() && entry[next] == '{') {
            const auto close = entry.find('}', next);
            if (close == std::string::npos) {
                for (auto& o : out) o += entry.substr(pos);
                break;
            }
            name = entry.substr(next + 1, close - next - 1);
            next = close + 1;
        } else {
            while (next < entry.size() &&
                   (std::isalnum(static_cast<unsigned char>(entry[next])) || entry[next] == '_')) {
                name.push_back(entry[next++]);
            }
        }
        std::vector<std::string> values;
        if (name == "ORIGIN") {
            values = {origin};
        } else if (name == "PLATFORM") {
            values = {env.platform};
        } else if (name == "LIB") {
            values = env.lib_expansions;
        } else {
            values = {entry.substr(pos, next - pos)};  // not a token ld.so knows: kept as is
        }
        // A known token without a value makes ld.so drop the whole entry (_dl_dst_substitute
        // returns ""): a search directory left out, a DT_NEEDED skipped.
        if (values.empty() || (values.size() == 1 && values.front().empty())) return {};
        std::vector<std::string> grown;
        for (const auto& o : out) {
            for (const auto& v : values) grown.push_back(o + v);
        }
        out = std::move(grown);
        pos = next;
    }
    return out;
}

struct Member {
    std::string path;
    DynamicInfo info;
    int parent = -1;     ///< the object that loaded it (its DT_RPATH chain is searched)
    std::string origin;  ///< what $ORIGIN expands to in its dynamic strings
};

// One directory the loader looks in, and why.
struct SearchDir {
    std::string dir;
    std::string how;  ///< "LD_LIBRARY_PATH", "DT_RUNPATH of /x/libdoca_rdmi.so", ...
};

class ClosureWalk {
  public:
    ClosureWalk(LoadKind kind, const LoadEnvironment& env, TrustCache& cache)
        : kind_(kind), env_(env), facts_(cache) {
        if (kind_ != LoadKind::program) known_ = env.loaded;
        legacy_names_ = {"tls", "x86_64", "haswell", "xeon_phi", "avx512_1", "i686", "i586"};
        if (!env.platform.empty() && std::find(legacy_names_.begin(), legacy_names_.end(),
                                               env.platform) == legacy_names_.end()) {
            legacy_names_.push_back(env.platform);
        }
    }

    ClosureVerdict run(const std::string& path) {
        if (kind_ == LoadKind::program) {
            // A script runs its #! interpreter (by absolute path): that is what gets loaded.
            if (auto interpreter = script_interpreter(path)) {
                if (auto gap = check_library_trust(path, &facts_)) {
                    fail(std::move(*gap), "");
                    return finish();
                }
                script_ = path;
                return run_from(*interpreter, "the interpreter of " + path);
            }
        }
        return run_from(path, "");
    }

  private:
    static std::optional<std::string> script_interpreter(const std::string& path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) return std::nullopt;
        std::array<char, 256> head{};
        const ssize_t got = ::read(fd, head.data(), head.size());
        ::close(fd);
        if (got < 3 || head[0] != '#' || head[1] != '!') return std::nullopt;
        const std::string_view line(head.data() + 2, static_cast<std::size_t>(got) - 2);
        const auto start = line.find_first_not_of(" \t");
        if (start == std::string_view::npos) return std::nullopt;
        const auto end = line.find_first_of(" \t\n", start);
        return std::string(line.substr(start, end == std::string_view::npos ? end : end - start));
    }

    ClosureVerdict run_from(const std::string& path, const std::string& context) {
        if (!add_member(path, -1, context)) return finish();
        if (kind_ == LoadKind::program && !program_interpreter(context)) return finish();
        for (std::size_t i = 0; i < members_.size() && !gap_; ++i) {
            // Copies: resolving grows members_. Filtees are mapped like DT_NEEDED (dl-deps.c).
            std::vector<std::string> names = members_[i].info.needed;
            const auto& filtees = members_[i].info.filtees;
            names.insert(names.end(), filtees.begin(), filtees.end());
            for (const auto& name : names) {
                resolve_needed(name, static_cast<int>(i));
                if (gap_) break;
            }
            if (i == 0 && kind_ == LoadKind::ibverbs && !gap_) providers();
        }
        return finish();
    }

    // The kernel maps an executed ELF file's PT_INTERP (fs/binfmt_elf.c), a path opened as it
    // stands (relative to the working directory), and runs it before anything else: the same
    // rule as a file the loader maps, and its own dependencies are walked too. A missing one
    // makes the exec fail, unless someone can create it. False when it fails (gap_ set).
    bool program_interpreter(const std::string& context) {
        const std::string& interpreter = members_[0].info.interpreter;
        if (interpreter.empty()) return true;
        const std::string path = absolute(interpreter, env_.cwd);
        const std::string what = "the program interpreter (PT_INTERP) of " + members_[0].path +
                                 (context.empty() ? "" : ", " + context);
        if (!is_regular(facts_, path)) {
            return check_dir(SearchDir{std::string(dir_name(path)), "PT_INTERP"}, interpreter, 0);
        }
        return add_member(path, 0, what);
    }

    // DT_NEEDED (and a filtee) as dl-deps.c takes it: its dynamic string tokens are expanded
    // first, with the requesting object's $ORIGIN, every spelling of $LIB, and AT_PLATFORM; a
    // name that then holds a '/' is a path, and _dl_map_object expands it once more.
    void resolve_needed(const std::string& name, int parent) {
        if (name.find('$') == std::string::npos) {
            resolve(name, parent);
            return;
        }
        const std::string& origin = members_[static_cast<std::size_t>(parent)].origin;
        for (const auto& once : expand_tokens(name, origin, env_)) {
            if (once.find('/') == std::string::npos || once.find('$') == std::string::npos) {
                resolve(once, parent);
            } else {
                for (const auto& twice : expand_tokens(once, origin, env_)) resolve(twice, parent);
            }
            if (gap_) return;
        }
    }

    ClosureVerdict finish() {
        ClosureVerdict verdict;
        if (!script_.empty()) verdict.members.push_back(script_);
        for (const auto& m : members_) verdict.members.push_back(m.path);
        verdict.gap = gap_;
        return verdict;
    }

    void fail(Gap gap, const std::string& context) {
        if (!context.empty()) gap.message += "; " + context;
        gap_ = std::move(gap);
    }

    std::string needed_by(const std::string& name, int parent, const std::string& how) const {
        std::string out = name;
        if (parent >= 0) out += " (needed by " + members_[static_cast<std::size_t>(parent)].path;
        if (!how.empty()) out += parent >= 0 ? ", via " + how : " (via " + how;
        if (parent >= 0 || !how.empty()) out += ")";
        return out;
    }

    // Adds a file the loader maps; false when it fails the rule (gap_ set). A member that is
    // only one of the loader's choices (a hwcaps variant, one of several ld.so.cache entries, a
    // file that such a variant may shadow) is not `certain`: its soname and path must not
    // satisfy a later DT_NEEDED, since ld.so may never map it and would search for that name.
    bool add_member(const std::string& path, int parent, const std::string& context,
                    bool certain = true) {
        if (auto seen = seen_paths_.find(path); seen != seen_paths_.end()) {
            if (certain) make_known(seen->second);
            return true;
        }
        seen_paths_.emplace(path, members_.size());
        if (auto gap = check_library_trust(path, &facts_)) {
            fail(std::move(*gap), context.empty() ? "" : "the loader would map it for " + context);
            return false;
        }
        auto info = read_info(path);
        if (!info) {
            fail(Gap{GapReason::untrusted, info.gap().message + "; its dependencies cannot be "
                                                                "checked"},
                 context.empty() ? "" : "the loader would map it for " + context);
            return false;
        }
        if (members_.size() >= kMaxMembers) {
            fail(Gap{GapReason::untrusted, path + ": more than 4096 files in the closure"}, "");
            return false;
        }
        members_.push_back(Member{path, std::move(info).value(), parent, origin(path)});
        if (certain) make_known(members_.size() - 1);
        return true;
    }

    // ld.so matches a DT_NEEDED against the names and sonames of the objects it has mapped.
    void make_known(std::size_t index) {
        if (index >= members_.size()) return;
        const Member& m = members_[index];
        if (!m.info.soname.empty()) known_.insert(m.info.soname);
        known_.insert(m.path);
    }

    // ld.so takes $ORIGIN of a loaded object from the name it opened, as it stands
    // (_dl_new_object); of an executed program from /proc/self/exe, its real path
    // (_dl_get_origin).
    std::string origin(const std::string& path) {
        if (kind_ != LoadKind::program || !members_.empty()) return std::string(dir_name(path));
        const TrustCache::Real real = facts_.realpath(path);
        return std::string(dir_name(real.err == 0 ? real.path : path));
    }

    bool check_dir(const SearchDir& dir, const std::string& name, int parent) {
        if (!checked_dirs_.insert(dir.dir).second) return true;
        if (auto gap = check_search_dir_trust(dir.dir, &facts_)) {
            fail(std::move(*gap),
                 "the loader searches it for " + needed_by(name, parent, dir.how) +
                     " before any later directory, so a file planted there would be loaded");
            return false;
        }
        return true;
    }

    [[nodiscard]] bool compatible(const std::string& candidate, int parent) const {
        if (parent < 0) return true;
        auto info = read_info(candidate);
        if (!info) return true;  // the loader would try it and fail; the trust check still runs
        const auto& want = members_[static_cast<std::size_t>(parent)].info;
        return info->elf_class == want.elf_class && info->machine == want.machine;
    }

    std::vector<SearchDir> expand_list(const std::string& list, int owner,
                                       const std::string& how) const {
        std::vector<SearchDir> dirs;
        const std::string origin =
            owner >= 0 ? members_[static_cast<std::size_t>(owner)].origin : std::string();
        for (const auto& entry : split_library_path(list, ":")) {
            for (auto& dir : expand_tokens(entry, origin, env_)) {
                dirs.push_back(SearchDir{absolute(dir, env_.cwd), how});
            }
        }
        return dirs;
    }

    std::vector<SearchDir> search_dirs(int parent) const {
        std::vector<SearchDir> dirs;
        const auto& requester = members_[static_cast<std::size_t>(parent)];
        if (!requester.info.has_runpath) {
            for (int at = parent; at >= 0; at = members_[static_cast<std::size_t>(at)].parent) {
                const auto& m = members_[static_cast<std::size_t>(at)];
                if (m.info.has_runpath || m.info.rpath.empty()) continue;
                for (auto& d : expand_list(m.info.rpath, at, "DT_RPATH of " + m.path))
                    dirs.push_back(std::move(d));
            }
            for (const auto& d : env_.main_rpath)
                dirs.push_back(SearchDir{d, "DT_RPATH of the main program"});
        }
        if (env_.ld_library_path) {
            const std::string& origin =
                kind_ == LoadKind::program ? members_[0].origin : env_.main_origin;
            for (const auto& entry : split_library_path(*env_.ld_library_path)) {
                for (auto& dir : expand_tokens(entry, origin, env_))
                    dirs.push_back(SearchDir{absolute(dir, env_.cwd), "LD_LIBRARY_PATH"});
            }
        }
        if (requester.info.has_runpath) {
            for (auto& d :
                 expand_list(requester.info.runpath, parent, "DT_RUNPATH of " + requester.path))
                dirs.push_back(std::move(d));
        }
        return dirs;
    }

    // glibc 2.33+ looks in DIR/glibc-hwcaps/<level>/ before DIR for the levels the CPU has.
    bool hwcaps(const SearchDir& dir, const std::string& name, int parent) {
        const std::string base = join_path(dir.dir, "glibc-hwcaps");
        if (!is_directory(facts_, base)) return legacy_hwcaps(dir.dir, dir.how, name, parent, 0);
        if (!check_dir(SearchDir{base, dir.how}, name, parent)) return false;
        for (const char* level : {"x86-64-v4", "x86-64-v3", "x86-64-v2", "power10", "power9", "z16",
                                  "z15", "z14", "z13"}) {
            const std::string sub = join_path(base, level);
            if (!is_directory(facts_, sub)) continue;
            if (!check_dir(SearchDir{sub, dir.how}, name, parent)) return false;
            const std::string candidate = join_path(sub, name);
            if (is_regular(facts_, candidate) && compatible(candidate, parent)) {
                if (!add_member(candidate, parent, needed_by(name, parent, dir.how), false))
                    return false;
                alternatives_ = true;
                found(name, true);
            }
        }
        return legacy_hwcaps(dir.dir, dir.how, name, parent, 0);
    }

    // Before 2.37, glibc also looks in DIR/<subset of tls, AT_PLATFORM, hwcap names>/ ("tls",
    // "haswell/x86_64", ...; `ld.so --help` lists them). Which subsets this CPU gives cannot be
    // asked without running ld.so, so every existing nesting of those names counts; one that
    // does not exist is as safe as DIR, whose rule already holds.
    bool legacy_hwcaps(const std::string& dir, const std::string& how, const std::string& name,
                       int parent, unsigned used) {
        for (std::size_t i = 0; i < legacy_names_.size(); ++i) {
            if ((used & (1U << i)) != 0) continue;
            const std::string sub = join_path(dir, legacy_names_[i]);
            if (!is_directory(facts_, sub)) continue;
            if (!check_dir(SearchDir{sub, how}, name, parent)) return false;
            if (!legacy_hwcaps(sub, how, name, parent, used | (1U << i))) return false;
            const std::string candidate = join_path(sub, name);
            if (is_regular(facts_, candidate) && compatible(candidate, parent)) {
                if (!add_member(candidate, parent, needed_by(name, parent, how), false))
                    return false;
                alternatives_ = true;
                found(name, true);
            }
        }
        return true;
    }

    const std::vector<LdCacheView>* cache() {
        if (cache_loaded_) return cache_ ? &*cache_ : nullptr;
        cache_loaded_ = true;
        const std::string path = "/etc/ld.so.cache";
        if (!is_regular(facts_, path)) return nullptr;
        if (auto gap = check_library_trust(path, &facts_)) {
            fail(std::move(*gap), "the loader takes library paths from it");
            return nullptr;
        }
        auto map = Mapping::open(path);
        if (!map) return nullptr;
        cache_map_ = std::move(map).value();  // the entries point into it
        auto entries = parse_ld_so_cache_views(cache_map_->bytes());
        if (entries) cache_ = std::move(entries).value();
        return cache_ ? &*cache_ : nullptr;
    }

    void resolve(const std::string& name, int parent) {
        if (known_.contains(name)) return;
        alternatives_ = false;  // set when a variant the CPU may or may not pick is a member
        if (name.find('/') != std::string::npos) {
            const std::string path = absolute(name, env_.cwd);
            if (!is_regular(facts_, path)) {
                check_dir(SearchDir{std::string(dir_name(path)), "a path"}, name, parent);
                return;
            }
            found(name, add_member(path, parent, needed_by(name, parent, "its path")));
            return;
        }
        // A name is known once found: one that is not found is looked for again by the next
        // object that needs it, with that object's search path, as ld.so does (in a DT_AUXILIARY
        // a name not found is no error).
        for (const auto& dir : search_dirs(parent)) {
            if (!hwcaps(dir, name, parent)) return;
            if (!check_dir(dir, name, parent)) return;
            const std::string candidate = join_path(dir.dir, name);
            if (is_regular(facts_, candidate) && compatible(candidate, parent)) {
                found(name, add_member(candidate, parent, needed_by(name, parent, dir.how),
                                       !alternatives_));
                return;
            }
        }
        // Copies: add_member() grows members_, which would leave a reference dangling.
        const std::uint16_t machine = members_[static_cast<std::size_t>(parent)].info.machine;
        const unsigned elf_class = members_[static_cast<std::size_t>(parent)].info.elf_class;
        if (const auto* entries = cache()) {
            const std::int32_t want = ld_cache_flags(machine, elf_class);
            bool in_cache = false;
            std::vector<std::pair<std::string, bool>> hits;  // path, a hwcaps entry
            for (const auto& entry : *entries) {
                if (entry.soname != name || (want != 0 && entry.flags != want)) continue;
                std::string path(entry.path);
                if (is_regular(facts_, path)) hits.emplace_back(std::move(path), entry.hwcap != 0);
            }
            // ld.so maps one of them: only a lone plain entry is certainly the one.
            const bool certain = hits.size() == 1 && !hits.front().second && !alternatives_;
            for (const auto& [path, hwcap] : hits) {
                if (!add_member(path, parent, needed_by(name, parent, "ld.so.cache"), certain))
                    return;
                in_cache = in_cache || !hwcap;
            }
            if (in_cache) {
                found(name, true);
                return;
            }
        }
        if (gap_) return;
        for (const auto& dir : default_library_dirs(machine, elf_class)) {
            const SearchDir search{dir, "the default directories"};
            if (!hwcaps(search, name, parent)) return;
            if (!check_dir(search, name, parent)) return;
            const std::string candidate = join_path(dir, name);
            if (is_regular(facts_, candidate) && compatible(candidate, parent)) {
                found(name, add_member(candidate, parent, needed_by(name, parent, search.how),
                                       !alternatives_));
                return;
            }
        }
        // Not found: a DT_NEEDED load fails before any constructor runs.
    }

    void found(const std::string& name, bool added) {
        if (added) known_.insert(name);
    }

    // libibverbs' providers: every "driver NAME" of its configuration directory and the names
    // of RDMAV_DRIVERS (else IBV_DRIVERS), each dlopen'ed by libibverbs as
    // "<provider dir>/lib<NAME><suffix>", then by soname; a NAME starting with '/' is a path.
    void providers() {
        auto map = Mapping::open(members_[0].path);
        if (!map) return;
        const auto [config_dir, suffix, provider_dir] = ibverbs_provider_strings((*map)->bytes());
        if (suffix.empty()) return;  // this libibverbs loads no providers
        std::vector<std::pair<std::string, std::string>> drivers;  // name, where it came from
        const SearchDir config{config_dir, "libibverbs' configuration directory"};
        // Checked even when missing: whoever could create it could name any provider.
        if (!check_dir(config, "its provider list", 0)) return;
        if (is_directory(facts_, config_dir)) {
            DirListing listing(config_dir);
            for (const auto& file : listing.names) {
                const std::string conf = join_path(config_dir, file);
                if (!is_regular(facts_, conf)) continue;
                if (auto gap = check_library_trust(conf, &facts_)) {
                    fail(std::move(*gap), "libibverbs loads the providers it names");
                    return;
                }
                for (auto& n : driver_names(conf)) drivers.emplace_back(std::move(n), conf);
            }
        }
        const std::optional<std::string>& list =
            env_.rdmav_drivers ? env_.rdmav_drivers : env_.ibv_drivers;
        const char* var = env_.rdmav_drivers ? "RDMAV_DRIVERS" : "IBV_DRIVERS";
        if (list && ::getuid() == ::geteuid()) {
            for (const auto& n : split_library_path(*list)) {
                if (!n.empty()) drivers.emplace_back(n, var);
            }
        }
        for (const auto& [driver, from] : drivers) {
            if (gap_) return;
            const std::string how = "provider '" + driver + "' from " + from;
            if (driver.front() == '/') {
                const std::string path = driver + suffix;
                if (is_regular(facts_, path)) {
                    add_member(path, 0, needed_by(std::string(base_name(path)), 0, how));
                } else {
                    check_dir(SearchDir{std::string(dir_name(path)), how},
                              std::string(base_name(path)), 0);
                }
                continue;
            }
            const std::string file = "lib" + driver + suffix;
            if (!provider_dir.empty()) {
                if (!check_dir(SearchDir{provider_dir, how}, file, 0)) return;
                const std::string path = join_path(provider_dir, file);
                if (is_regular(facts_, path)) {
                    add_member(path, 0, needed_by(file, 0, how));
                    continue;
                }
            }
            resolve(file, 0);
        }
    }

    struct DirListing {
        explicit DirListing(const std::string& dir) {
            std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), &::closedir);
            if (!d) return;
            while (const dirent* ent = ::readdir(d.get())) {
                const std::string n = ent->d_name;
                if (n != "." && n != "..") names.push_back(n);
            }
        }
        std::vector<std::string> names;
    };

    static std::vector<std::string> driver_names(const std::string& conf) {
        std::vector<std::string> names;
        auto map = Mapping::open(conf);
        if (!map || (*map)->bytes().size() > (1U << 20U)) return names;
        for (std::string_view line : split_lines((*map)->bytes())) {
            line = trim(line, " \t");
            if (!line.starts_with("driver") || line.size() < 7 ||
                (line[6] != ' ' && line[6] != '\t'))
                continue;
            line = trim(line.substr(6), " \t");
            const auto stop = line.find_first_of(" \t\r");
            const std::string_view name = line.substr(0, stop);
            if (!name.empty()) names.emplace_back(name);
        }
        return names;
    }

    LoadKind kind_;
    const LoadEnvironment& env_;
    TrustCache& facts_;
    std::vector<Member> members_;
    std::set<std::string> known_;
    std::map<std::string, std::size_t> seen_paths_;  ///< each member's index in members_
    bool alternatives_ = false;  ///< resolve(): a hwcaps variant of the name is a member
    std::set<std::string> checked_dirs_;
    std::unique_ptr<Mapping> cache_map_;
    std::optional<std::vector<LdCacheView>> cache_;
    bool cache_loaded_ = false;
    std::optional<Gap> gap_;
    std::string script_;  ///< the script whose interpreter is members_[0], if any
    std::vector<std::string> legacy_names_;  ///< legacy hwcap subdirectory names
};

std::vector<std::string> lib_spellings() {
    std::vector<std::string> out;
#if defined(__x86_64__)
    out.emplace_back("lib/x86_64-linux-gnu");
#elif defined(__aarch64__)
    out.emplace_back("lib/aarch64-linux-gnu");
#endif
    if (sizeof(void*) == 8) out.emplace_back("lib64");
    out.emplace_back("lib");
    return out;
}

int note_loaded(dl_phdr_info* info, std::size_t /*size*/, void* data) {
    auto* loaded = static_cast<std::set<std::string>*>(data);
    if (info->dlpi_name == nullptr || info->dlpi_name[0] != '/') return 0;
    const std::string path = info->dlpi_name;
    loaded->insert(path);
    if (auto dyn = read_info(path); dyn && !dyn->soname.empty()) loaded->insert(dyn->soname);
    return 0;
}

std::string current_dir() {
    std::array<char, 4096> buf{};
    if (::getcwd(buf.data(), buf.size()) == nullptr) return "/nonexistent-working-directory";
    return buf.data();
}

// The NUL-free run of `image` around offset `at` when it is 4 to 4096 bytes long, else "".
// Only up to 4096 bytes either side are looked at, so that a file with many matches in one long
// run costs a bounded amount per match.
std::string_view string_around(std::string_view image, std::size_t at) {
    constexpr std::size_t kMax = 4096;
    const std::size_t low = at > kMax ? at - kMax : 0;
    const void* nul = ::memrchr(image.data() + low, '\0', at - low);
    std::size_t start = 0;
    if (nul != nullptr) {
        start = static_cast<std::size_t>(static_cast<const char*>(nul) - image.data()) + 1;
    } else if (low > 0) {
        return {};  // more than 4096 bytes before `at` without a NUL
    }
    const std::size_t high = std::min(image.size(), start + kMax + 1);
    const void* next = std::memchr(image.data() + at, '\0', high - at);
    std::size_t end = image.size();
    if (next != nullptr) {
        end = static_cast<std::size_t>(static_cast<const char*>(next) - image.data());
    } else if (high < image.size()) {
        return {};  // more than 4096 bytes without a NUL
    }
    if (end - start < 4 || end - start > kMax) return {};
    return image.substr(start, end - start);
}

// Each offset of `needle` in `image`, in order, instead of a walk over every string of the file
// (libibverbs holds about 50,000 of them: a third of a live probe's own work). string_view::find
// looks for the needle's first byte with memchr: let it be one that is rare in a binary.
template <typename Visit>
void for_each_match(std::string_view image, std::string_view needle, Visit visit) {
    for (auto at = image.find(needle); at != std::string_view::npos;
         at = image.find(needle, at + 1)) {
        visit(at);
    }
}

}  // namespace

IbverbsProviderStrings ibverbs_provider_strings(std::string_view image) {
    IbverbsProviderStrings out;
    constexpr std::string_view kConfig = "/libibverbs.d";
    constexpr std::string_view kPattern = "lib%s-rdmav";
    for_each_match(image, kConfig, [&](std::size_t at) {
        const std::string_view s = string_around(image, at);
        if (!s.empty() && s.front() == '/' && s.ends_with(kConfig)) out.config_dir = s;
    });
    // From '%' (about 500 in libibverbs) rather than 'l' or 'i': "lib" is checked before it.
    for_each_match(image, kPattern.substr(3), [&](std::size_t at) {
        if (at < 3 || image.substr(at - 3, 3) != kPattern.substr(0, 3)) return;
        const std::string_view s = string_around(image, at - 3);
        if (s.empty() || !s.ends_with(".so")) return;
        const auto first = s.find(kPattern);
        out.suffix = s.substr(first + 5);  // after "lib%s"
        if (first > 1 && s.front() == '/') out.provider_dir = s.substr(0, first - 1);
    });
    return out;
}

LoadEnvironment program_load_environment() {
    LoadEnvironment env;
    const char* platform = reinterpret_cast<const char*>(::getauxval(AT_PLATFORM));  // NOLINT
    env.platform = platform != nullptr ? platform : "";
    env.lib_expansions = lib_spellings();
    env.cwd = current_dir();
    return env;
}

LoadEnvironment current_load_environment(const Env& vars) {
    LoadEnvironment env = program_load_environment();
    env.secure = ::getauxval(AT_SECURE) != 0;
    if (!env.secure) env.ld_library_path = vars.get("LD_LIBRARY_PATH");
    env.rdmav_drivers = vars.get("RDMAV_DRIVERS");
    env.ibv_drivers = vars.get("IBV_DRIVERS");
    ::dl_iterate_phdr(&note_loaded, &env.loaded);
    std::unique_ptr<char, decltype(&std::free)> exe(::realpath("/proc/self/exe", nullptr),
                                                    &std::free);
    if (exe) {
        env.main_origin = std::string(dir_name(exe.get()));
        if (auto info = read_info(exe.get()); info && !info->has_runpath && !info->rpath.empty()) {
            const std::string& origin = env.main_origin;
            for (const auto& entry : split_library_path(info->rpath, ":")) {
                for (auto& dir : expand_tokens(entry, origin, env))
                    env.main_rpath.push_back(absolute(dir, env.cwd));
            }
        }
    }
    return env;
}

ClosureVerdict check_load_closure(const std::string& path, LoadKind kind,
                                  const LoadEnvironment& env, TrustCache* shared) {
    TrustCache own;
    ClosureWalk walk(kind, env, shared != nullptr ? *shared : own);
    return walk.run(path);
}

}  // namespace rdmi
