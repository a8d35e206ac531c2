// A port's `state` is its logical state (what the subnet manager, or on Ethernet the netdev,
// made of it) and `phys_state` its physical link: DOWN over a LinkUp link is no cable problem,
// and "connect the cable" would send the user to the rack for nothing. Formats:
// docs/reference/sysfs-formats.md#port-attributes.
#include "probes/devices/port_fix.hpp"

#include <algorithm>

#include "text/shell_word.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

// IB_PORT_PHYS_STATE_LINK_UP in the kernel's enum ib_port_phys_state.
constexpr std::uint32_t kPhysLinkUp = 5;

void add_once(std::vector<std::string>& out, std::string clause) {
    if (std::find(out.begin(), out.end(), clause) == out.end()) out.push_back(std::move(clause));
}

std::string port_label(const sysfs::RdmaDevice& device, const sysfs::RdmaPort& port) {
    return device.name + " port " + std::to_string(port.number);
}

// The netdevs an Ethernet port's GID table names, else its function's (representors aside).
std::vector<std::string> port_netdevs(const sysfs::DeviceInventory& inventory,
                                      const sysfs::RdmaDevice& device,
                                      const sysfs::RdmaPort& port) {
    if (port.netdevs.ok() && !port.netdevs.value->empty()) return *port.netdevs.value;
    std::vector<std::string> out;
    if (!device.function.ok()) return out;
    if (const auto* fn = inventory.find_function(*device.function.value)) {
        for (const auto& name : fn->netdevs) {
            const auto* netdev = inventory.find_netdev(name);
            if (netdev == nullptr || !sysfs::is_representor(*netdev)) out.push_back(name);
        }
    }
    return out;
}

std::string ip_link_up(const std::vector<std::string>& netdevs) {
    std::vector<std::string> commands;
    commands.reserve(netdevs.size());
    for (const auto& name : netdevs) commands.push_back("ip link set " + shell_word(name) + " up");
    return join(commands, "; ");
}

// "mlxlink -d 0000:03:00.0, ibstat mlx5_0 1": where to look at one port's physical link.
// mlxlink takes the PCI address; an SF's link is its PF's.
std::string link_tools(const sysfs::DeviceInventory& inventory, const sysfs::RdmaDevice& device,
                       const sysfs::RdmaPort& port) {
    const auto* fn =
        device.function.ok() ? inventory.find_function(*device.function.value) : nullptr;
    const std::string pci =
        fn != nullptr && !fn->pci_address.empty() ? fn->pci_address : device.name;
    return "mlxlink -d " + shell_word(pci) + ", ibstat " + shell_word(device.name) + " " +
           std::to_string(port.number);
}

std::string physical_fix(const sysfs::DeviceInventory& inventory, const sysfs::RdmaDevice& device,
                         const sysfs::RdmaPort& port) {
    const std::string phys = port.phys_state.ok() ? " (" + port.phys_state.value->name + ")" : "";
    return port_label(device, port) + " has no physical link" + phys +
           ": connect the cable and check the link (" + link_tools(inventory, device, port) + ")";
}

// An Ethernet (RoCE) port follows its netdev: mlx5 reports DOWN and Disabled unless the netdev
// is running and has carrier, so an administratively down netdev looks like a dead link. Its
// `flags` tell the two apart.
std::string ethernet_fix(const sysfs::DeviceInventory& inventory, const sysfs::RdmaDevice& device,
                         const sysfs::RdmaPort& port, bool link_up) {
    const std::string who = port_label(device, port) + " is " + port.state.value->name +
                            (link_up ? " though physically up (LinkUp)" : "");
    const auto netdevs = port_netdevs(inventory, device, port);
    std::vector<std::string> down;
    bool all_known_up = !netdevs.empty();
    for (const auto& name : netdevs) {
        const auto* netdev = inventory.find_netdev(name);
        const bool known = netdev != nullptr && netdev->flags.ok();
        if (known && (*netdev->flags.value & sysfs::kNetdevAdminUp) == 0) down.push_back(name);
        all_known_up = all_known_up && known && (*netdev->flags.value & sysfs::kNetdevAdminUp);
    }
    if (!down.empty()) {
        return who + ": its netdev " + join(down) + " is administratively down; " +
               ip_link_up(down);
    }
    if (netdevs.empty()) {
        return who + ": bring its netdev up (ip link set NETDEV up; rdma link show names it)";
    }
    if (all_known_up) {
        if (!link_up) return physical_fix(inventory, device, port);
        return who + ": its netdev " + join(netdevs) +
               " is administratively up; check its carrier (ip link show " +
               shell_word(netdevs.front()) + ") and the driver's messages (dmesg)";
    }
    // The netdev's administrative state could not be read.
    if (link_up) return who + ": its netdev is administratively down; " + ip_link_up(netdevs);
    return who + ": " + ip_link_up(netdevs) +
           " if it is administratively down; otherwise "
           "connect the cable and check the link (" +
           link_tools(inventory, device, port) + ")";
}

std::string infiniband_logical_fix(const sysfs::RdmaDevice& device, const sysfs::RdmaPort& port) {
    return port_label(device, port) + " is physically up (LinkUp) but " + port.state.value->name +
           ": no subnet manager has configured it; run sminfo to find the fabric's subnet "
           "manager, or start one (opensm) on a node of this fabric";
}

}  // namespace

std::string port_down_fix(const sysfs::DeviceInventory& inventory,
                          const std::vector<std::string>& rdma_devices) {
    std::vector<std::string> clauses;
    for (const auto& name : rdma_devices) {
        const auto* device = inventory.find_rdma_device(name);
        if (device == nullptr) continue;
        for (const auto& port : device->ports) {
            if (!port.state.ok() || port.state.value->name == "ACTIVE") continue;
            const std::string layer = port.link_layer.ok() ? *port.link_layer.value : "";
            const bool link_up =
                port.phys_state.ok() && port.phys_state.value->number == kPhysLinkUp;
            if (layer == "Ethernet") {
                add_once(clauses, ethernet_fix(inventory, *device, port, link_up));
            } else if (!port.phys_state.ok()) {
                add_once(clauses, port_label(*device, port) + " is " + port.state.value->name +
                                      ": connect the cable / bring the link up (ibstat, mlxlink)");
            } else if (link_up && layer == "InfiniBand") {
                add_once(clauses, infiniband_logical_fix(*device, port));
            } else if (link_up) {
                add_once(clauses, port_label(*device, port) + " is physically up (LinkUp) but " +
                                      port.state.value->name +
                                      ": on InfiniBand check the subnet manager (sminfo, "
                                      "opensm); on Ethernet bring its netdev up (ip link set "
                                      "NETDEV up)");
            } else {
                add_once(clauses, physical_fix(inventory, *device, port));
            }
        }
    }
    return join(clauses, "; ");
}

}  // namespace rdmi
