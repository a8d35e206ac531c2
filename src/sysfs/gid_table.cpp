// A port's GID table and the netdevs it names: from sysfs's file per entry
// (docs/reference/sysfs-formats.md#gid-table), or from another source's answer.
#include "sysfs/gid_table.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "sysfs/attr_dir.hpp"
#include "sysfs/attr_text.hpp"
#include "sysfs/ib_attrs.hpp"
#include "sysfs/scan_steps.hpp"

namespace rdmi::sysfs {
namespace {

// The directories one port's GID table is read from, made once per port rather than once per
// entry: a real port has 255 entries, most of them unused.
struct GidDirs {
    AttrDir gids;
    AttrDir types;
    AttrDir ndevs;
    // gids/ opened once, each entry then one name away from it (not a walk from the root).
    std::unique_ptr<DirFiles> entries;

    explicit GidDirs(const AttrDir& port)
        : gids(port.child("gids")),
          types(port.child("gid_attrs/types")),
          ndevs(port.child("gid_attrs/ndevs")),
          entries(port.fs().dir_files(gids.actual_dir())) {}

    // gids/<name>, as AttrDir::read() gives it.
    [[nodiscard]] Result<std::string> read_entry(const std::string& name) const {
        auto bytes = entries->read_file(gids.actual(name), kAttrCap);
        if (!bytes) return gids.located(name, bytes.gap());
        return bytes;
    }
};

// One entry of gids/: nullopt for an unused (all-zero) one or one that does not read, the
// latter with its gap on the port.
std::optional<PortGid> scan_gid(const GidDirs& dirs, std::uint32_t index, const std::string& name,
                                RdmaPort& out) {
    const AttrDir& gids = dirs.gids;
    const AttrDir& types = dirs.types;
    const AttrDir& ndevs = dirs.ndevs;
    auto bytes = dirs.read_entry(name);
    if (!bytes) {
        out.gaps.push_back(bytes.gap());
        out.unread_gids.push_back(bytes.gap());
        return std::nullopt;
    }
    auto gid = parse_gid(*bytes);
    if (!gid) {
        out.gaps.push_back(gids.located(name, gid.gap()));
        out.unread_gids.push_back(out.gaps.back());
        return std::nullopt;
    }
    if (is_zero_gid(*gid)) return std::nullopt;
    PortGid entry;
    entry.index = index;
    entry.gid = *gid;
    // The kernel fails reads of these for empty entries (EINVAL), so only non-zero ones.
    auto type = types.read(name);
    auto type_text = type ? parse_line(*type) : Result<std::string>(type.gap());
    if (type_text) {
        entry.type = Sourced<std::string>::of(*type_text, types.source(name));
    } else {
        const Gap gap = types.located(name, type_text.gap());
        out.gaps.push_back(gap);
        entry.type = Sourced<std::string>::missing(gap, types.source(name));
    }
    // ndevs exist only for RoCE entries; on InfiniBand ports the read fails by design.
    if (auto ndev = ndevs.read(name)) {
        if (auto ndev_text = parse_line(*ndev)) entry.ndev = *ndev_text;
    }
    return entry;
}

// The entries of gids/ by number, or the gap that kept the directory from being listed (then
// on every GID datum of the port).
std::optional<std::vector<PortGid>> scan_gids(const AttrDir& port, RdmaPort& out) {
    auto listing = port.fs().list_dir(port.child("gids").actual_dir());
    if (!listing) {
        const Gap gap = port.located("gids", listing.gap());
        out.gid_count = Sourced<std::uint32_t>::missing(gap, port.source("gids"));
        out.gid_types = Sourced<std::vector<std::string>>::missing(gap, port.source("gids"));
        out.gids = Sourced<std::vector<PortGid>>::missing(gap, port.source("gids"));
        return std::nullopt;
    }
    // By number, not by name: a directory lists "10" before "2".
    std::vector<std::pair<std::uint32_t, std::string>> numbers;
    for (const auto& entry : *listing) {
        if (auto n = numbered_entry(entry.name)) numbers.emplace_back(*n, entry.name);
    }
    std::sort(numbers.begin(), numbers.end());
    std::vector<PortGid> entries;
    const GidDirs dirs(port);
    for (const auto& [index, name] : numbers) {
        if (auto entry = scan_gid(dirs, index, name, out)) entries.push_back(std::move(*entry));
    }
    return entries;
}

// gid_count, gid_types and gids from the entries; the netdevs they name, sorted.
std::set<std::string> keep_entries(std::vector<PortGid> entries, const Provenance& table,
                                   const Provenance& types_source, RdmaPort& out) {
    std::set<std::string> types;
    std::set<std::string> ndevs;
    for (const auto& entry : entries) {
        if (entry.type.ok()) types.insert(*entry.type.value);
        if (entry.ndev) ndevs.insert(*entry.ndev);
    }
    out.gid_count = Sourced<std::uint32_t>::of(static_cast<std::uint32_t>(entries.size()), table);
    out.gid_types = Sourced<std::vector<std::string>>::of(
        std::vector<std::string>(types.begin(), types.end()), types_source);
    out.gids = Sourced<std::vector<PortGid>>::of(std::move(entries), table);
    return ndevs;
}

}  // namespace

void finish_gid_table(const Fs& fs, RdmaPort& port, const PortGidTable* table) {
    if (!port.pending_gids) return;
    const PendingGidTable pending = std::move(*port.pending_gids);
    port.pending_gids.reset();
    const AttrDir dir(fs, pending.shown_dir, pending.actual_dir);
    std::set<std::string> ndevs;
    Provenance ndevs_source = dir.source("gid_attrs/ndevs");
    if (table != nullptr) {
        ndevs = keep_entries(table->entries, table->source, table->source, port);
        ndevs_source = table->source;
    } else if (auto entries = scan_gids(dir, port)) {
        ndevs = keep_entries(std::move(*entries), dir.source("gids"), dir.source("gid_attrs/types"),
                             port);
    }
    if (!ndevs.empty()) {
        port.netdevs = Sourced<std::vector<std::string>>::of(
            std::vector<std::string>(ndevs.begin(), ndevs.end()), ndevs_source);
    } else if (pending.function_known) {
        port.netdevs = Sourced<std::vector<std::string>>::of(pending.function_netdevs,
                                                             pending.function_net_source);
    } else {
        port.netdevs = Sourced<std::vector<std::string>>::missing(
            Gap{GapReason::not_found, dir.shown("gid_attrs/ndevs") +
                                          ": no netdev in the GID table and no known function"},
            dir.source("gid_attrs/ndevs"));
    }
}

}  // namespace rdmi::sysfs
