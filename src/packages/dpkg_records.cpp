// The dpkg backend of PackageRecords (docs/reference/package-records.md#dpkg-database). Rules
// taken from dpkg's own documentation:
// - dpkg(1), dpkg-query(1): a package's files are listed in info/<pkg>.list, one absolute path a
//   line ("/." first); a Multi-Arch: same package's info files carry its architecture
//   (<pkg>:<arch>.list); info/<pkg>.md5sums lines are "<md5>  <path without leading />".
// - dpkg-divert(1): var/lib/dpkg/diversions holds three lines per diversion: the diverted path,
//   where other packages' copies go, and the diverting package (":" for a local diversion). The
//   file at the diverted path is the diverting package's; the others' is at the divert-to path.
// - merged /usr: on a system whose /bin, /sbin and /lib* are links into /usr, a package listing
//   /lib/x and the file /usr/lib/x are one file.
#include "packages/dpkg_records.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>

#include "packages/dpkg_status.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

constexpr std::string_view kMergedDirs[] = {"/bin",   "/sbin",   "/lib",   "/lib32",
                                            "/lib64", "/libx32", "/libo32"};

/// The /usr spelling of a path under a merged directory ("/lib/x" -> "/usr/lib/x").
std::string merged_spelling(std::string_view path) {
    for (const auto dir : kMergedDirs) {
        if (path.starts_with(dir) && (path.size() == dir.size() || path[dir.size()] == '/'))
            return "/usr" + std::string(path);
    }
    return std::string(path);
}

struct Package {
    InstalledPackage identity;
    std::string info_stem;  ///< "name" or "name:arch": the prefix of its info files
    bool multi_arch_same = false;
};

/// One package's listing of a path.
struct Listing {
    std::size_t package;  ///< index into the packages
    bool without_usr;     ///< listed as /lib/... on a merged /usr (its key is /usr/lib/...)
};

struct Diversion {
    std::string divert_to;  ///< as spelled in the file
    std::string by;         ///< the diverting package; ":" for a local diversion
};

class DpkgRecords final : public PackageRecords {
  public:
    DpkgRecords(const Fs& fs, DpkgLimits limits) : fs_(fs), limits_(limits) {}

    [[nodiscard]] std::string_view manager() const override { return "dpkg"; }
    [[nodiscard]] const Provenance& source() const override { return source_; }

    [[nodiscard]] std::optional<FileRecord> owner_of(std::string_view path) const override {
        const std::string key = key_of(path);
        // The diverted path: the diverting package's own copy (or the admin's, for a local one).
        if (auto diverted = diversions_.find(key); diverted != diversions_.end()) {
            const Diversion& d = diverted->second;
            if (d.by == ":") return std::nullopt;
            return record_of(key, [&](const Package& p) { return p.identity.name == d.by; });
        }
        // The divert-to path: the copy of the package that ships the diverted path, the
        // diverting package excepted.
        if (auto to = divert_targets_.find(key); to != divert_targets_.end()) {
            const std::string& from = to->second;
            const std::string& by = diversions_.at(from).by;
            return record_of(
                from, [&](const Package& p) { return p.identity.name != by; }, std::string(path));
        }
        return record_of(key, [](const Package&) { return true; });
    }

    [[nodiscard]] std::optional<InstalledPackage> main_owner_of_directory(
        std::string_view dir) const override {
        std::string prefix = key_of(dir);
        if (!prefix.ends_with('/')) prefix += '/';
        std::map<std::size_t, std::size_t> counts;  // package index -> files directly in dir
        for (auto it = files_.lower_bound(prefix); it != files_.end(); ++it) {
            const std::string& file = it->first;
            if (!file.starts_with(prefix)) break;
            if (file.find('/', prefix.size()) != std::string::npos) continue;  // deeper
            for (const Listing listing : it->second) ++counts[listing.package];
        }
        std::optional<std::size_t> best;
        for (const auto& [owner, count] : counts) {
            if (!best || count > counts[*best]) best = owner;
        }
        if (!best) return std::nullopt;
        return packages_[*best].identity;
    }

    [[nodiscard]] std::string reinstall_command(const InstalledPackage& package) const override {
        // A Multi-Arch: same package installed for several architectures needs its qualifier.
        for (const auto& p : packages_) {
            if (p.identity.name == package.name && p.multi_arch_same &&
                p.identity.arch == package.arch && !package.arch.empty()) {
                return "apt-get install --reinstall " + package.name + ":" + package.arch;
            }
        }
        return "apt-get install --reinstall " + package.name;
    }

    Result<bool> load(const Deadline& deadline);

  private:
    [[nodiscard]] std::string key_of(std::string_view path) const {
        return merged_usr_ ? merged_spelling(path) : std::string(path);
    }

    template <typename Accept>
    std::optional<FileRecord> record_of(const std::string& key, Accept accept,
                                        const std::string& shown_path = "") const {
        auto it = files_.find(key);
        if (it == files_.end()) return std::nullopt;
        for (const Listing listing : it->second) {
            const std::size_t index = listing.package;
            const Package& package = packages_[index];
            if (!accept(package)) continue;
            FileRecord record;
            record.package = package.identity;
            // merged_spelling() only ever adds "/usr" in front.
            const std::string listed = listing.without_usr ? key.substr(4) : key;
            record.path = shown_path.empty() ? listed : shown_path;
            // The digest is recorded under the path the package lists (a diverted copy keeps
            // its content, not its name).
            if (auto digest = md5_of(index, listed)) {
                record.digest_algorithm = "md5";
                record.digest = *digest;
            }
            return record;
        }
        return std::nullopt;
    }

    /// The md5 the package recorded for the file it lists at `path` (its md5sums, or its
    /// Conffiles for a conffile), read the first time that package is asked about.
    std::optional<std::string> md5_of(std::size_t index, const std::string& path) const;

    const Fs& fs_;
    DpkgLimits limits_;
    Provenance source_{"file", std::string(kDpkgAdminDir) + "/status"};
    bool merged_usr_ = false;
    std::vector<Package> packages_;
    std::vector<std::vector<std::pair<std::string, std::string>>> conffiles_;
    /// path key -> the packages listing it. An ordered map: a directory's files are one range.
    std::map<std::string, std::vector<Listing>> files_;
    std::unordered_map<std::string, Diversion> diversions_;        ///< key of the diverted path
    std::unordered_map<std::string, std::string> divert_targets_;  ///< divert-to key -> from key
    mutable std::mutex md5_mutex_;
    mutable std::unordered_map<std::size_t, std::unordered_map<std::string, std::string>> md5s_;
};

std::optional<std::string> DpkgRecords::md5_of(std::size_t index, const std::string& path) const {
    for (const auto& [conffile, md5] : conffiles_[index]) {
        if (conffile == path) return md5;
    }
    const std::lock_guard lock(md5_mutex_);
    auto cached = md5s_.find(index);
    if (cached == md5s_.end()) {
        std::unordered_map<std::string, std::string> sums;
        const std::string file =
            std::string(kDpkgAdminDir) + "/info/" + packages_[index].info_stem + ".md5sums";
        if (auto text = fs_.read_file(file, limits_.max_list_bytes)) {
            for (const auto line : split_lines(*text)) {
                // "<32 hex>  <path without the leading />"
                if (line.size() < 35 || line[32] != ' ') continue;
                const auto hex = line.substr(0, 32);
                if (hex.find_first_not_of("0123456789abcdef") != std::string_view::npos) continue;
                const auto name = trim(line.substr(33), " ");
                if (name.empty()) continue;
                sums.emplace("/" + std::string(name), std::string(hex));
            }
        }
        cached = md5s_.emplace(index, std::move(sums)).first;
    }
    if (auto it = cached->second.find(path); it != cached->second.end()) return it->second;
    return std::nullopt;
}

Result<bool> DpkgRecords::load(const Deadline& deadline) {
    const std::string admin(kDpkgAdminDir);
    const std::string status_path = admin + "/status";
    auto status_text = fs_.read_file(status_path, limits_.max_status_bytes);
    if (!status_text) {
        const Gap& gap = status_text.gap();
        if (gap.reason == GapReason::not_found) {
            return make_gap(GapReason::not_found,
                            "no dpkg database: " + status_path + " does not exist");
        }
        return gap;
    }
    auto status = parse_dpkg_status(*status_text, status_path, {}, &deadline);
    if (!status) return status.gap();

    for (const auto dir : {"/bin", "/lib"}) {
        auto info = fs_.stat(dir, false);
        if (info && info->type == FileType::symlink) merged_usr_ = true;
    }

    auto entries = fs_.list_dir(admin + "/info");
    if (!entries) return entries.gap();
    if (entries->size() > limits_.max_info_entries) {
        return make_gap(GapReason::malformed, admin + "/info: " + std::to_string(entries->size()) +
                                                  " entries, over the " +
                                                  std::to_string(limits_.max_info_entries) +
                                                  " cap; not read");
    }
    std::set<std::string, std::less<>> lists;
    for (const auto& entry : *entries) {
        if (entry.name.ends_with(".list")) lists.insert(entry.name);
    }

    std::size_t total = 0;
    std::size_t paths = 0;
    const auto reader = fs_.dir_files(admin + "/info");
    // The parsed stanzas are this function's to take apart: their conffiles move, not copy.
    for (auto& entry : status.value().packages) {
        if (!entry.has_files()) continue;
        if (deadline.expired()) {
            return make_gap(GapReason::timeout,
                            admin + "/info: the deadline passed while reading package lists");
        }
        Package package;
        package.identity = {entry.name, entry.version, entry.architecture,
                            entry.installed() ? "installed" : entry.state};
        package.multi_arch_same = entry.multi_arch_same;
        const std::string qualified = entry.name + ":" + entry.architecture;
        package.info_stem = !entry.architecture.empty() && lists.contains(qualified + ".list")
                                ? qualified
                                : entry.name;
        const std::string list_name = package.info_stem + ".list";
        const std::size_t index = packages_.size();
        packages_.push_back(std::move(package));
        conffiles_.push_back(std::move(entry.conffiles));
        if (!lists.contains(list_name)) continue;  // e.g. a meta-package with no files
        std::string list_path = admin;
        list_path.append("/info/").append(list_name);
        auto text = reader->read_file(list_path, limits_.max_list_bytes);
        if (!text) continue;  // that package lists nothing we can vouch for
        total += text->size();
        if (total > limits_.max_total_list_bytes) {
            return make_gap(GapReason::malformed,
                            admin + "/info: the package lists are over " +
                                std::to_string(limits_.max_total_list_bytes >> 20U) +
                                " MiB together; not read");
        }
        std::string_view rest = *text;
        while (!rest.empty()) {
            const auto end = rest.find('\n');
            const std::string_view line = rest.substr(0, end);
            rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
            if (!line.starts_with('/') || line == "/." || line.find('\0') != std::string_view::npos)
                continue;
            if (++paths > limits_.max_listed_paths) {
                return make_gap(GapReason::malformed,
                                admin + "/info: the package lists name more than " +
                                    std::to_string(limits_.max_listed_paths) +
                                    " paths together; not read");
            }
            if (paths % 65536 == 0 && deadline.expired()) {
                std::string why = admin;
                why.append("/info: the deadline passed while reading ").append(list_name);
                return make_gap(GapReason::timeout, why);
            }
            std::string key = key_of(line);
            const bool without_usr = key.size() != line.size();
            auto& owners = files_[std::move(key)];
            if (owners.empty() || owners.back().package != index)
                owners.push_back(Listing{index, without_usr});
        }
    }

    auto diversions = fs_.read_file(admin + "/diversions", limits_.max_diversions_bytes);
    if (!diversions && diversions.gap().reason != GapReason::not_found) return diversions.gap();
    if (diversions) {
        const auto lines = split_lines(*diversions);
        for (std::size_t i = 0; i + 2 < lines.size(); i += 3) {
            if (!lines[i].starts_with('/') || !lines[i + 1].starts_with('/')) continue;
            const std::string from = key_of(lines[i]);
            const std::string to = key_of(lines[i + 1]);
            diversions_[from] = Diversion{std::string(lines[i + 1]), std::string(lines[i + 2])};
            divert_targets_[to] = from;
        }
    }
    return true;
}

}  // namespace

Result<std::shared_ptr<const PackageRecords>> open_dpkg_records(const Fs& fs,
                                                                const Deadline& deadline,
                                                                const DpkgLimits& limits) {
    auto records = std::make_shared<DpkgRecords>(fs, limits);
    auto loaded = records->load(deadline);
    if (!loaded) return loaded.gap();
    return std::shared_ptr<const PackageRecords>(std::move(records));
}

}  // namespace rdmi
