// The plain data the sysfs layer reports: NVIDIA functions, rdma devices and their netdevs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/check.hpp"
#include "sysfs/ib_attrs.hpp"
#include "sysfs/net_attrs.hpp"
#include "sysfs/pci_ids.hpp"

namespace rdmi::sysfs {

/// PCI physical function, SR-IOV virtual function, or scalable function.
enum class FunctionKind { pf, vf, sf };

/// "PF", "VF" or "SF" (the contract's spelling).
std::string_view to_string(FunctionKind kind);

/// Whether a function has a DPA, and the qualifier ("unconfirmed", the product, ...).
struct DpaCapability {
    DpaSupport support = DpaSupport::unknown;
    std::string detail;
};

/// One vendor-0x15b3 PCI function (PF or VF) or one mlx5 scalable function.
struct Function {
    std::string name;  ///< PCI address ("0000:03:00.0") for PF/VF, "mlx5_core.sf.N" for SF
    FunctionKind kind = FunctionKind::pf;
    std::string sysfs_path;   ///< /sys/bus/pci/devices/<bdf> or /sys/bus/auxiliary/devices/<sf>
    std::string device_path;  ///< the resolved /sys/devices/... directory
    std::string pci_address;  ///< own address (PF/VF); the parent PF's address (SF)
    Sourced<std::string> parent_pf;  ///< VF: `physfn`; SF: the PCI device above it; PF: n/a
    Sourced<std::uint32_t> vendor;
    Sourced<std::uint32_t> device;
    Sourced<std::uint32_t> subsystem_vendor;
    Sourced<std::uint32_t> subsystem_device;
    Sourced<std::string> product;     ///< derived from `device` through the id table
    Sourced<std::int32_t> numa_node;  ///< -1: no NUMA affinity
    Sourced<std::string> driver;      ///< basename of the `driver` link
    Sourced<std::uint32_t> sriov_totalvfs;
    Sourced<std::uint32_t> sriov_numvfs;
    Sourced<std::uint32_t> sfnum;           ///< SF only
    std::vector<std::string> virtfns;       ///< PF: VF addresses in virtfn<N> order
    Sourced<DpaCapability> dpa;             ///< derived; VFs and SFs inherit their PF's
    std::vector<std::string> netdevs;       ///< entries of <device>/net/, sorted
    std::vector<std::string> rdma_devices;  ///< ibdevs whose `device` link resolves here
    std::vector<Gap> gaps;                  ///< problems that belong to no single field
};

/// One non-zero entry of a port's GID table, with the attributes the kernel shows beside it.
struct PortGid {
    std::uint32_t index = 0;  ///< the entry's number in `gids/`
    Gid gid{};                ///< `gids/<index>`
    /// `gid_attrs/types/<index>`: "IB/RoCE v1" (an InfiniBand GID or RoCE v1) or "RoCE v2".
    Sourced<std::string> type;
    /// `gid_attrs/ndevs/<index>`: the netdev a RoCE entry belongs to; nullopt on InfiniBand
    /// ports (the kernel fails that read by design) and when it does not read.
    std::optional<std::string> ndev;
};

/// What a scan that left a port's GID table for later keeps, to read it from sysfs or name the
/// port's netdevs then (sysfs/gid_table.hpp).
struct PendingGidTable {
    std::string shown_dir;   ///< the port's directory as shown (/sys/class/infiniband/...)
    std::string actual_dir;  ///< the port's directory as read
    /// The owning function's netdevs that are not representors, and whether the function is
    /// known: the port's netdevs when its GID table names none.
    std::vector<std::string> function_netdevs;
    bool function_known = false;
    Provenance function_net_source;  ///< <device>/device/net
};

/// One port of an rdma device (`ports/<n>/`).
struct RdmaPort {
    std::uint32_t number = 0;
    Sourced<NumberedName> state;       ///< "4: ACTIVE"
    Sourced<NumberedName> phys_state;  ///< "5: LinkUp"
    Sourced<std::string> link_layer;   ///< InfiniBand, Ethernet, Unknown
    Sourced<LinkRate> rate;
    Sourced<std::uint32_t> lid;
    Sourced<std::uint32_t> gid_count;             ///< non-zero entries of gids/
    Sourced<std::vector<std::string>> gid_types;  ///< distinct types of those entries, sorted
    /// The non-zero entries of gids/ by index: what a probe judging the addresses reads (the
    /// count and types above are their summary, as the report's devices section shows it).
    Sourced<std::vector<PortGid>> gids;
    /// The port's netdevs: from gid_attrs/ndevs when the GID table names any, else the
    /// function's device/net/ entries that are not representors; provenance says which.
    Sourced<std::vector<std::string>> netdevs;
    std::vector<Gap> gaps;  ///< individual GID entries that could not be read
    /// The gids/ entries among those gaps whose address itself did not read or parse: any of
    /// them may be the entry a probe judging the addresses looks for.
    std::vector<Gap> unread_gids;
    /// Set while the GID table (gid_count, gid_types, gids, netdevs above) is not filled in yet:
    /// a live scan leaves it for the verbs worker's answer (finish_gid_table()).
    std::optional<PendingGidTable> pending_gids;
};

/// One rdma device (`/sys/class/infiniband/<name>`).
struct RdmaDevice {
    std::string name;               ///< "mlx5_0"
    std::string sysfs_path;         ///< /sys/class/infiniband/<name>
    Sourced<std::string> function;  ///< the owning Function's name (PCI address or SF name)
    Sourced<std::string> fw_ver;
    Sourced<std::string> node_guid;
    Sourced<std::string> sys_image_guid;
    Sourced<std::string> board_id;
    Sourced<std::string> hca_type;
    Sourced<NumberedName> node_type;
    std::vector<RdmaPort> ports;  ///< by port number
    std::vector<Gap> gaps;
};

/// A netdev that belongs to one of the functions (found in <device>/net/).
struct NetDev {
    std::string name;
    std::string sysfs_path;  ///< /sys/class/net/<name>
    std::string function;    ///< the owning Function's name
    Sourced<std::uint32_t> mtu;
    Sourced<std::string> operstate;
    /// IFF_* bits: whether it is administratively up (kNetdevAdminUp), which operstate does
    /// not tell apart from "no carrier".
    Sourced<std::uint32_t> flags;
    Sourced<std::string> address;         ///< MAC (or 20-byte IPoIB address)
    Sourced<std::string> phys_port_name;  ///< only switchdev-mode ports have one
    Sourced<std::string> phys_switch_id;
    /// Decoded phys_port_name: a representor (pcipf/pcivf/pcisf) or an uplink (physical).
    std::optional<PortName> port_name;
};

/// Everything scan_devices() found, sorted for stable output.
struct DeviceInventory {
    std::vector<Function> functions;       ///< PFs and VFs by address, then SFs by name
    std::vector<RdmaDevice> rdma_devices;  ///< by name
    std::vector<NetDev> netdevs;           ///< by name
    std::vector<Gap> gaps;  ///< entries that could not be examined at all (loops, dangling)
    /// The /sys/bus/pci/devices entries among `gaps` that may be NVIDIA functions (a loop, a
    /// dangling link, a vendor that does not read): while any is here, "no NVIDIA device" is
    /// not known.
    std::vector<Gap> unexamined_pci;
    /// Why /sys/class/infiniband could not be listed when it exists (permission denied, ...):
    /// then "no RDMA device" is unknown, not absent.
    std::optional<Gap> rdma_class_gap;

    /// The function called `name`, or nullptr.
    [[nodiscard]] const Function* find_function(std::string_view name) const;
    /// The rdma device called `name`, or nullptr.
    [[nodiscard]] const RdmaDevice* find_rdma_device(std::string_view name) const;
    /// The netdev called `name`, or nullptr.
    [[nodiscard]] const NetDev* find_netdev(std::string_view name) const;
};

/// True for a representor netdev (phys_port_name pfNhpf, pfNvfM, pfNsfM).
bool is_representor(const NetDev& netdev);

}  // namespace rdmi::sysfs
