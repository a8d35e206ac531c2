// fit_to_limits: one pass over the tree in the order of use. The costs are the manifest's own
// records (writer.hpp), measured as they will be written, so that "fits" here is "fits" there.
#include "bundle/fit.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "bundle/layout.hpp"
#include "bundle/writer.hpp"

namespace rdmi::bundle {
namespace {

// A digest's length is all a record's cost depends on: fitting hashes nothing.
const std::string kDigestShape(64, '0');

std::string limit_text(std::uint64_t n) {
    return std::to_string(n);
}

// The deepest directory that holds both in-root paths.
std::string common_dir(const std::string& a, const std::string& b) {
    if (a.empty()) return std::string(dir_name(b));
    std::string at = a;
    while (at != "/" && !(b.size() > at.size() && b.starts_with(at) && b[at.size()] == '/'))
        at = std::string(dir_name(at));
    return at;
}

// The skipped records, within their share of the manifest: past it, the rest are counted in
// one last record, for which room is always kept.
class SkipList {
  public:
    SkipList(std::uint64_t budget, const BundleLimits& limits)
        : budget_(budget),
          reserve_(manifest_record_bytes(skipped_record(
              {std::string(limits.name_bytes, 'x'), summary_reason(~std::uint64_t{0}), ""}))) {}

    void add(Skipped s) {
        const std::uint64_t cost = manifest_record_bytes(skipped_record(s));
        if (folded_ == 0 && used_ + cost + reserve_ <= budget_) {
            used_ += cost;
            kept_.push_back(std::move(s));
            return;
        }
        folded_limit_ = folded_ == 0 || folded_limit_ == s.limit ? s.limit : std::string();
        ++folded_;
        folded_under_ = common_dir(folded_under_, s.path);
    }

    std::vector<Skipped> finish() && {
        if (folded_ != 0)
            kept_.push_back({folded_under_.empty() ? "/" : folded_under_, summary_reason(folded_),
                             "document_bytes"});
        return std::move(kept_);
    }

  private:
    static std::string summary_reason(std::uint64_t n) {
        return std::to_string(n) +
               " more objects at or below this directory not stored or only as placeholders "
               "(past the bundle's limits; the manifest has no room to list them one by one)";
    }

    std::uint64_t budget_;
    std::uint64_t reserve_;
    std::uint64_t used_ = 0;
    std::uint64_t folded_ = 0;
    std::string folded_under_;
    std::string folded_limit_;  ///< the limit every folded record names, or empty
    std::vector<Skipped> kept_;
};

// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF): a JSON document can spell only those, and the manifest must name every stored
// object as the archive does.
bool is_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            cp = c & 0x1fU;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            cp = c & 0x0fU;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            cp = c & 0x07U;
        } else {
            return false;
        }
        if (s.size() - i <= n) return false;
        for (std::size_t k = 1; k <= n; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            if ((b & 0xc0U) != 0x80U) return false;
            cp = (cp << 6U) | (b & 0x3fU);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
        i += n + 1;
    }
    return true;
}

// Why an object cannot be in any bundle under `limits`, whatever the room left (its name, its
// depth, its link text); empty when it can.
Skipped unstorable(const Entry& e, const BundleLimits& limits) {
    const std::string name = std::string(kTopDir) + e.path;
    if (name.size() > limits.name_bytes)
        return {
            e.path,
            "name longer than the bundle's limit of " + limit_text(limits.name_bytes) + " bytes",
            "name_bytes"};
    std::uint64_t depth = 0;
    std::size_t at = 0;
    while (at < name.size()) {
        std::size_t end = name.find('/', at);
        if (end == std::string::npos) end = name.size();
        if (end - at > limits.component_bytes)
            return {e.path,
                    "a name component longer than the bundle's limit of " +
                        limit_text(limits.component_bytes) + " bytes",
                    "component_bytes"};
        if (end > at) ++depth;
        at = end + 1;
    }
    if (depth > limits.depth)
        return {e.path,
                "nested deeper than the bundle's limit of " + limit_text(limits.depth) + " levels",
                "depth"};
    if (e.type == FileType::symlink && e.target.size() > limits.link_bytes)
        return {e.path,
                "link text longer than the bundle's limit of " + limit_text(limits.link_bytes) +
                    " bytes",
                "link_bytes"};
    // The manifest (JSON) would spell such a name with U+FFFD, not as the archive names it:
    // a replay would find no owner, mode or type for it. Listed here with that spelling.
    if (!is_utf8(e.path) || (e.type == FileType::symlink && !is_utf8(e.target)))
        return {e.path, "a name or link text that is not UTF-8 (the manifest cannot name it)", ""};
    return {};
}

bool below_any(const std::string& path, const std::set<std::string>& dirs) {
    if (dirs.empty()) return false;
    for (std::string at(dir_name(path)); at != "/"; at = std::string(dir_name(at))) {
        if (dirs.count(at) != 0) return true;
    }
    return false;
}

}  // namespace

std::uint64_t manifest_record_bytes(const nlohmann::ordered_json& record) {
    // Bytes that are not UTF-8 (a path or a message quoting one) spelled as U+FFFD, never a
    // throw: the cost as manifest() will write it.
    const std::string text = record.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    // Each line is indented by 4 more at its place in a top-level array; ",\n" separates it.
    const auto lines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    return text.size() + 4 * lines + 2;
}

void fit_to_limits(Tree& tree, const BundleLimits& limits, const FitBudget& budget) {
    const std::uint64_t skipped_share =
        std::min(budget.manifest_bytes / 8, std::uint64_t{1} << 20U);
    const std::uint64_t errors_share = (budget.manifest_bytes - skipped_share) / 4;
    std::uint64_t manifest_used = 0;

    std::vector<FailedAccess> failures;
    for (auto& f : tree.failures) {
        const std::uint64_t cost = manifest_record_bytes(error_record(f));
        if (manifest_used + cost > errors_share) {
            ++tree.failures_dropped;
            continue;
        }
        manifest_used += cost;
        failures.push_back(std::move(f));
    }
    tree.failures = std::move(failures);
    const std::uint64_t files_share = budget.manifest_bytes - skipped_share;

    SkipList skips(skipped_share, limits);
    for (auto& s : tree.skipped) skips.add(std::move(s));

    std::set<std::string> dropped_dirs;
    std::vector<std::string> dropped;
    std::uint64_t entries_used = 0;
    std::uint64_t content_used = 0;
    // Directories, links and files with contents first, in path order (a directory is decided
    // before what is below it). Then placeholders, each listed directory's first ones before
    // any directory's later ones: when a listing of 100,000 entries meets the limit, it is the
    // one cut short, not the small listings that sort after it.
    std::vector<std::pair<const std::string*, Entry*>> order;
    std::vector<std::tuple<std::uint64_t, const std::string*, Entry*>> placeholders;
    std::map<std::string_view, std::uint64_t> listed;
    for (auto& [path, e] : tree.entries) {
        if (e.type == FileType::regular && e.content == Content::placeholder) {
            placeholders.emplace_back(listed[dir_name(path)]++, &path, &e);
        } else {
            order.emplace_back(&path, &e);
        }
    }
    std::sort(placeholders.begin(), placeholders.end(), [](const auto& a, const auto& b) {
        return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b)
                                                : *std::get<1>(a) < *std::get<1>(b);
    });
    for (const auto& [rank, path, e] : placeholders) order.emplace_back(path, e);
    for (auto [path_of, entry_of] : order) {
        const std::string& path = *path_of;
        Entry& e = *entry_of;
        if (below_any(path, dropped_dirs)) {
            dropped.push_back(path);
            continue;
        }
        auto drop = [&](Skipped why) {
            if (e.type == FileType::directory) dropped_dirs.insert(path);
            dropped.push_back(path);
            skips.add(std::move(why));
        };
        if (Skipped why = unstorable(e, limits); !why.path.empty()) {
            drop(std::move(why));
            continue;
        }
        if (entries_used + 1 > budget.entries) {
            drop({path,
                  "not stored: the bundle's limit of " + limit_text(limits.entries) +
                      " entries was reached",
                  "entries"});
            continue;
        }
        // Contents that do not fit: the file is kept as a placeholder (its facts stay).
        Skipped emptied;
        if (e.type == FileType::regular && e.content == Content::captured) {
            if (e.bytes.size() > limits.entry_bytes) {
                emptied = {path,
                           "larger than the bundle's per-entry limit of " +
                               limit_text(limits.entry_bytes) + " bytes",
                           "entry_bytes"};
            } else if (content_used + e.bytes.size() > budget.content_bytes) {
                emptied = {path,
                           "the bundle's limit of " + limit_text(limits.extract_bytes) +
                               " bytes extracted was reached",
                           "extract_bytes"};
            }
            if (!emptied.path.empty()) {
                e.bytes.clear();
                e.content = Content::placeholder;
            }
        }
        const std::uint64_t cost = manifest_record_bytes(file_record(e, kDigestShape));
        if (manifest_used + cost > files_share) {
            drop({path,
                  "not stored: the manifest's limit of " + limit_text(limits.document_bytes) +
                      " bytes was reached",
                  "document_bytes"});
            continue;
        }
        if (!emptied.path.empty()) skips.add(std::move(emptied));
        ++entries_used;
        manifest_used += cost;
        content_used += e.bytes.size();
    }
    for (const auto& path : dropped) tree.entries.erase(path);
    tree.skipped = std::move(skips).finish();
    tree.content_bytes = content_used;
}

}  // namespace rdmi::bundle
