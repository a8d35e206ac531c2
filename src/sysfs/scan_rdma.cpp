// Scans /sys/class/infiniband: rdma devices, their ports, GID tables and netdevs.
#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "sysfs/attr_dir.hpp"
#include "sysfs/attr_text.hpp"
#include "sysfs/ib_attrs.hpp"
#include "sysfs/scan_steps.hpp"

namespace rdmi::sysfs {
namespace {

constexpr std::string_view kClass = "/sys/class/infiniband";

std::optional<std::uint32_t> number_of(std::string_view name) {
    std::uint32_t n = 0;
    auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
    if (ec != std::errc() || ptr != name.data() + name.size() || name.empty()) return std::nullopt;
    return n;
}

struct GidScan {
    std::vector<PortGid> entries;
    std::set<std::string> ndevs;
};

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

void scan_gids(const AttrDir& port, RdmaPort& out, GidScan& scan) {
    auto listing = port.fs().list_dir(port.child("gids").actual_dir());
    if (!listing) {
        const Gap gap = port.located("gids", listing.gap());
        out.gid_count = Sourced<std::uint32_t>::missing(gap, port.source("gids"));
        out.gid_types = Sourced<std::vector<std::string>>::missing(gap, port.source("gids"));
        out.gids = Sourced<std::vector<PortGid>>::missing(gap, port.source("gids"));
        return;
    }
    // By number, not by name: a directory lists "10" before "2".
    std::vector<std::pair<std::uint32_t, std::string>> numbers;
    for (const auto& entry : *listing) {
        if (auto n = number_of(entry.name)) numbers.emplace_back(*n, entry.name);
    }
    std::sort(numbers.begin(), numbers.end());
    std::set<std::string> types;
    const GidDirs dirs(port);
    for (const auto& [index, name] : numbers) {
        auto entry = scan_gid(dirs, index, name, out);
        if (!entry) continue;
        if (entry->type.ok()) types.insert(*entry->type.value);
        if (entry->ndev) scan.ndevs.insert(*entry->ndev);
        scan.entries.push_back(std::move(*entry));
    }
    out.gid_count = Sourced<std::uint32_t>::of(static_cast<std::uint32_t>(scan.entries.size()),
                                               port.source("gids"));
    out.gid_types = Sourced<std::vector<std::string>>::of(
        std::vector<std::string>(types.begin(), types.end()), port.source("gid_attrs/types"));
    out.gids = Sourced<std::vector<PortGid>>::of(std::move(scan.entries), port.source("gids"));
}

RdmaPort scan_port(const AttrDir& ports, std::uint32_t number, const std::string& entry,
                   const std::vector<std::string>& function_netdevs, bool function_known,
                   const AttrDir& device_dir) {
    const AttrDir dir = ports.child(entry);
    RdmaPort port;
    port.number = number;
    port.state = dir.get<NumberedName>("state", parse_numbered_name);
    port.phys_state = dir.get<NumberedName>("phys_state", parse_numbered_name);
    port.link_layer = dir.get<std::string>("link_layer", parse_link_layer);
    port.rate = dir.get<LinkRate>("rate", parse_rate);
    port.lid = dir.get<std::uint32_t>("lid", parse_lid);
    GidScan gids;
    scan_gids(dir, port, gids);
    if (!gids.ndevs.empty()) {
        port.netdevs = Sourced<std::vector<std::string>>::of(
            std::vector<std::string>(gids.ndevs.begin(), gids.ndevs.end()),
            dir.source("gid_attrs/ndevs"));
    } else if (function_known) {
        port.netdevs = Sourced<std::vector<std::string>>::of(function_netdevs,
                                                             device_dir.source("device/net"));
    } else {
        port.netdevs = Sourced<std::vector<std::string>>::missing(
            Gap{GapReason::not_found, dir.shown("gid_attrs/ndevs") +
                                          ": no netdev in the GID table and no known function"},
            dir.source("gid_attrs/ndevs"));
    }
    return port;
}

void scan_one(const Fs& fs, const std::string& name, const FunctionIndex& by_path,
              DeviceInventory& inventory) {
    const std::string shown = join_path(kClass, name);
    auto real = fs.real_path(shown);
    if (!real) {
        inventory.gaps.push_back(real.gap());
        return;
    }
    const AttrDir dir(fs, shown, *real);
    RdmaDevice dev;
    dev.name = name;
    dev.sysfs_path = shown;
    std::vector<std::string> function_netdevs;
    bool function_known = false;
    auto parent = fs.real_path(dir.actual("device"));
    if (!parent) {
        dev.function = Sourced<std::string>::missing(dir.located("device", parent.gap()),
                                                     dir.source("device"));
    } else if (auto it = by_path.find(*parent); it == by_path.end()) {
        dev.function = Sourced<std::string>::missing(
            Gap{GapReason::not_found,
                dir.shown("device") + ": " + *parent + " is not a vendor 0x15b3 function"},
            dir.source("device"));
    } else {
        Function& fn = inventory.functions[it->second];
        fn.rdma_devices.push_back(name);
        dev.function = Sourced<std::string>::of(fn.name, dir.source("device"));
        function_known = true;
        for (const auto& nd : fn.netdevs) {
            const NetDev* netdev = inventory.find_netdev(nd);
            if (netdev == nullptr || !is_representor(*netdev)) function_netdevs.push_back(nd);
        }
    }
    dev.fw_ver = dir.get<std::string>("fw_ver", parse_fw_ver);
    dev.node_guid = dir.get<std::string>("node_guid", parse_guid);
    dev.sys_image_guid = dir.get<std::string>("sys_image_guid", parse_guid);
    dev.board_id = dir.get<std::string>("board_id", parse_line);
    dev.hca_type = dir.get<std::string>("hca_type", parse_line);
    dev.node_type = dir.get<NumberedName>("node_type", parse_numbered_name);
    const AttrDir ports = dir.child("ports");
    auto entries = fs.list_dir(ports.actual_dir());
    if (!entries) {
        dev.gaps.push_back(dir.located("ports", entries.gap()));
    } else {
        std::vector<std::pair<std::uint32_t, std::string>> numbers;
        for (const auto& entry : *entries) {
            if (auto n = number_of(entry.name)) numbers.emplace_back(*n, entry.name);
        }
        std::sort(numbers.begin(), numbers.end());
        for (const auto& [number, entry] : numbers) {
            dev.ports.push_back(
                scan_port(ports, number, entry, function_netdevs, function_known, dir));
        }
    }
    inventory.rdma_devices.push_back(std::move(dev));
}

}  // namespace

void scan_rdma_devices(const Fs& fs, const FunctionIndex& by_path, DeviceInventory& inventory) {
    auto entries = fs.list_dir(kClass);
    if (!entries) {
        // The class directory appears with ib_core; without it there are simply no devices.
        if (entries.gap().reason != GapReason::not_found) {
            inventory.gaps.push_back(entries.gap());
            inventory.rdma_class_gap = entries.gap();
        }
        return;
    }
    for (const auto& entry : *entries) scan_one(fs, entry.name, by_path, inventory);
}

}  // namespace rdmi::sysfs
