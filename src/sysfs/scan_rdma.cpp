// Scans /sys/class/infiniband: rdma devices, their ports, GID tables (sysfs/gid_table.cpp)
// and netdevs.
#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>
#include <vector>

#include "sysfs/attr_dir.hpp"
#include "sysfs/attr_text.hpp"
#include "sysfs/gid_table.hpp"
#include "sysfs/ib_attrs.hpp"
#include "sysfs/scan_steps.hpp"

namespace rdmi::sysfs {
namespace {

constexpr std::string_view kClass = "/sys/class/infiniband";

RdmaPort scan_port(const AttrDir& ports, std::uint32_t number, const std::string& entry,
                   const std::vector<std::string>& function_netdevs, bool function_known,
                   const AttrDir& device_dir, GidTables gid_tables) {
    const AttrDir dir = ports.child(entry);
    RdmaPort port;
    port.number = number;
    port.state = dir.get<NumberedName>("state", parse_numbered_name);
    port.phys_state = dir.get<NumberedName>("phys_state", parse_numbered_name);
    port.link_layer = dir.get<std::string>("link_layer", parse_link_layer);
    port.rate = dir.get<LinkRate>("rate", parse_rate);
    port.lid = dir.get<std::uint32_t>("lid", parse_lid);
    port.pending_gids = PendingGidTable{dir.shown_dir(), dir.actual_dir(), function_netdevs,
                                        function_known, device_dir.source("device/net")};
    if (gid_tables == GidTables::read) finish_gid_table(dir.fs(), port, nullptr);
    return port;
}

void scan_one(const Fs& fs, const std::string& name, const FunctionIndex& by_path,
              GidTables gid_tables, DeviceInventory& inventory) {
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
            if (auto n = numbered_entry(entry.name)) numbers.emplace_back(*n, entry.name);
        }
        std::sort(numbers.begin(), numbers.end());
        for (const auto& [number, entry] : numbers) {
            dev.ports.push_back(
                scan_port(ports, number, entry, function_netdevs, function_known, dir, gid_tables));
        }
    }
    inventory.rdma_devices.push_back(std::move(dev));
}

}  // namespace

std::optional<std::uint32_t> numbered_entry(std::string_view name) {
    std::uint32_t n = 0;
    auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
    if (ec != std::errc() || ptr != name.data() + name.size() || name.empty()) return std::nullopt;
    return n;
}

void scan_rdma_devices(const Fs& fs, const FunctionIndex& by_path, GidTables gid_tables,
                       DeviceInventory& inventory) {
    auto entries = fs.list_dir(kClass);
    if (!entries) {
        // The class directory appears with ib_core; without it there are simply no devices.
        if (entries.gap().reason != GapReason::not_found) {
            inventory.gaps.push_back(entries.gap());
            inventory.rdma_class_gap = entries.gap();
        }
        return;
    }
    for (const auto& entry : *entries) scan_one(fs, entry.name, by_path, gid_tables, inventory);
}

}  // namespace rdmi::sysfs
