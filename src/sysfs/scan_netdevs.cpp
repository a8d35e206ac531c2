// Scans the netdevs below each function (<device>/net/<if>) into NetDev records.
#include <algorithm>

#include "sysfs/attr_dir.hpp"
#include "sysfs/attr_text.hpp"
#include "sysfs/net_attrs.hpp"
#include "sysfs/scan_steps.hpp"

namespace rdmi::sysfs {

void scan_netdevs(const Fs& fs, DeviceInventory& inventory) {
    for (auto& fn : inventory.functions) {
        const AttrDir net(fs, join_path(fn.device_path, "net"));
        auto entries = fs.list_dir(net.actual_dir());
        if (!entries) {
            if (entries.gap().reason != GapReason::not_found) fn.gaps.push_back(entries.gap());
            continue;
        }
        for (const auto& entry : *entries) {
            // Reading through the device directory skips the /sys/class/net link walk.
            const AttrDir dir(fs, join_path("/sys/class/net", entry.name), net.actual(entry.name));
            NetDev nd;
            nd.name = entry.name;
            nd.sysfs_path = dir.shown_dir();
            nd.function = fn.name;
            nd.mtu = dir.get<std::uint32_t>("mtu", parse_mtu);
            nd.operstate = dir.get<std::string>("operstate", parse_operstate);
            nd.flags = dir.get<std::uint32_t>("flags", parse_netdev_flags);
            nd.address = dir.get<std::string>("address", parse_hw_address);
            nd.phys_port_name = dir.get<std::string>("phys_port_name", parse_line);
            nd.phys_switch_id = dir.get<std::string>("phys_switch_id", parse_line);
            if (nd.phys_port_name.ok()) nd.port_name = parse_port_name(*nd.phys_port_name.value);
            fn.netdevs.push_back(entry.name);
            inventory.netdevs.push_back(std::move(nd));
        }
    }
    std::sort(inventory.netdevs.begin(), inventory.netdevs.end(),
              [](const NetDev& a, const NetDev& b) { return a.name < b.name; });
}

}  // namespace rdmi::sysfs
