// Tests for scan_devices() over every generated fixture root, with exact expectations.
#include "sysfs/devices.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>

#include "sysfs_fixture.hpp"

namespace rdmi::sysfs {
namespace {

using Names = std::vector<std::string>;

const Function& function(const DeviceInventory& inv, std::string_view name) {
    const Function* fn = inv.find_function(name);
    REQUIRE_MESSAGE(fn != nullptr, "no function ", name);
    return *fn;
}

const RdmaDevice& rdma(const DeviceInventory& inv, std::string_view name) {
    const RdmaDevice* dev = inv.find_rdma_device(name);
    REQUIRE_MESSAGE(dev != nullptr, "no rdma device ", name);
    return *dev;
}

const NetDev& netdev(const DeviceInventory& inv, std::string_view name) {
    const NetDev* nd = inv.find_netdev(name);
    REQUIRE_MESSAGE(nd != nullptr, "no netdev ", name);
    return *nd;
}

Names function_names(const DeviceInventory& inv) {
    Names out;
    for (const auto& fn : inv.functions) out.push_back(fn.name);
    return out;
}

Names rdma_names(const DeviceInventory& inv) {
    Names out;
    for (const auto& dev : inv.rdma_devices) out.push_back(dev.name);
    return out;
}

Names netdev_names(const DeviceInventory& inv) {
    Names out;
    for (const auto& nd : inv.netdevs) out.push_back(nd.name);
    return out;
}

template <typename T>
void check_gap(const Sourced<T>& field, GapReason reason, const std::string& message) {
    REQUIRE_FALSE(field.ok());
    REQUIRE(field.gap.has_value());
    CHECK(field.gap->reason == reason);
    CHECK(field.gap->message == message);
}

}  // namespace

TEST_CASE("scan_devices: a machine without an NVIDIA function reports nothing, and no gap") {
    const auto fs = test::sysfs_fixture("empty");
    const auto inv = scan_devices(fs);
    CHECK(inv.functions.empty());  // the Intel NIC is filtered out by vendor
    CHECK(inv.rdma_devices.empty());
    CHECK(inv.netdevs.empty());
    CHECK(inv.gaps.empty());
}

TEST_CASE("scan_devices: BlueField-3 host in DPU mode, 2 PFs and the management function") {
    const auto fs = test::sysfs_fixture("bf3-host-dpu");
    const auto inv = scan_devices(fs);
    CHECK(inv.gaps.empty());
    CHECK(function_names(inv) == Names{"0000:03:00.0", "0000:03:00.1", "0000:03:00.2"});
    CHECK(rdma_names(inv) == Names{"mlx5_0", "mlx5_1"});
    CHECK(netdev_names(inv) == Names{"ens1f0np0", "ens1f1np1"});

    const Function& pf0 = function(inv, "0000:03:00.0");
    CHECK(pf0.kind == FunctionKind::pf);
    CHECK(to_string(pf0.kind) == "PF");
    CHECK(pf0.sysfs_path == "/sys/bus/pci/devices/0000:03:00.0");
    CHECK(pf0.device_path == "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0");
    CHECK(pf0.pci_address == "0000:03:00.0");
    CHECK(pf0.vendor.value == 0x15b3U);
    CHECK(pf0.vendor.source.kind == "sysfs");
    CHECK(pf0.vendor.source.ref == "/sys/bus/pci/devices/0000:03:00.0/vendor");
    CHECK(pf0.device.value == 0xa2dcU);
    CHECK(pf0.subsystem_vendor.value == 0x15b3U);
    CHECK(pf0.subsystem_device.value == 0x0051U);
    CHECK(pf0.product.value == "BlueField-3 integrated ConnectX-7 network controller");
    CHECK(pf0.product.source.kind == "derived");
    CHECK(pf0.numa_node.value == 0);
    CHECK(pf0.driver.value == "mlx5_core");
    CHECK(pf0.driver.source.ref == "/sys/bus/pci/devices/0000:03:00.0/driver");
    CHECK(pf0.sriov_totalvfs.value == 16U);
    CHECK(pf0.sriov_numvfs.value == 0U);
    CHECK(pf0.virtfns.empty());
    CHECK(pf0.parent_pf.gap->reason == GapReason::not_applicable);
    CHECK(pf0.sfnum.gap->reason == GapReason::not_applicable);
    REQUIRE(pf0.dpa.ok());
    CHECK(pf0.dpa.value->support == DpaSupport::yes);
    CHECK(pf0.dpa.source.kind == "derived");
    CHECK(pf0.dpa.source.ref == "inferred from PCI device id 0xa2dc");
    CHECK(pf0.netdevs == Names{"ens1f0np0"});
    CHECK(pf0.rdma_devices == Names{"mlx5_0"});
    CHECK(pf0.gaps.empty());

    const Function& mgmt = function(inv, "0000:03:00.2");
    CHECK(mgmt.kind == FunctionKind::pf);
    CHECK(mgmt.device.value == 0xc2d5U);
    CHECK(mgmt.product.value == "BlueField-3 SoC Management Interface");
    check_gap(mgmt.driver, GapReason::not_found,
              "/sys/bus/pci/devices/0000:03:00.2/driver: no such file or directory");
    CHECK(mgmt.dpa.value->support == DpaSupport::no);
    CHECK(mgmt.rdma_devices.empty());

    const RdmaDevice& dev = rdma(inv, "mlx5_0");
    CHECK(dev.sysfs_path == "/sys/class/infiniband/mlx5_0");
    CHECK(dev.function.value == "0000:03:00.0");
    CHECK(dev.function.source.ref == "/sys/class/infiniband/mlx5_0/device");
    CHECK(dev.fw_ver.value == "32.41.1000");
    CHECK(dev.fw_ver.source.ref == "/sys/class/infiniband/mlx5_0/fw_ver");
    CHECK(dev.node_guid.value == "58a2:e103:0073:0000");
    CHECK(dev.sys_image_guid.value == "58a2:e103:0073:0000");
    CHECK(dev.board_id.value == "MT_0000000884");
    CHECK(dev.hca_type.value == "MT41692");
    CHECK(dev.node_type.value->number == 1U);
    CHECK(dev.node_type.value->name == "CA");
    REQUIRE(dev.ports.size() == 1);
    const RdmaPort& port = dev.ports[0];
    CHECK(port.number == 1U);
    CHECK(port.state.value->number == 4U);
    CHECK(port.state.value->name == "ACTIVE");
    CHECK(port.state.source.ref == "/sys/class/infiniband/mlx5_0/ports/1/state");
    CHECK(port.phys_state.value->number == 5U);
    CHECK(port.phys_state.value->name == "LinkUp");
    CHECK(port.link_layer.value == "Ethernet");
    CHECK(port.rate.value->gbps == doctest::Approx(200.0));
    CHECK(port.rate.value->width == "2X");
    CHECK(port.rate.value->speed == "HDR");
    CHECK(port.lid.value == 0U);
    // The link-local address and the netdev's IPv4 address, each as RoCE v1 and v2.
    CHECK(port.gid_count.value == 4U);
    CHECK(port.gid_types.value == Names{"IB/RoCE v1", "RoCE v2"});
    CHECK(port.netdevs.value == Names{"ens1f0np0"});
    CHECK(port.netdevs.source.ref == "/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs");
    CHECK(port.gaps.empty());

    const NetDev& nd = netdev(inv, "ens1f0np0");
    CHECK(nd.sysfs_path == "/sys/class/net/ens1f0np0");
    CHECK(nd.function == "0000:03:00.0");
    CHECK(nd.mtu.value == 9000U);
    CHECK(nd.mtu.source.ref == "/sys/class/net/ens1f0np0/mtu");
    CHECK(nd.operstate.value == "up");
    CHECK(nd.address.value == "58:a2:e1:73:00:00");
    CHECK(nd.phys_port_name.gap->reason == GapReason::not_found);
    CHECK_FALSE(nd.port_name.has_value());
    CHECK_FALSE(is_representor(nd));
}

TEST_CASE("scan_devices: BlueField Arm side with SFs and representors") {
    const auto fs = test::sysfs_fixture("bf3-arm");
    const auto inv = scan_devices(fs);
    CHECK(inv.gaps.empty());
    CHECK(function_names(inv) ==
          Names{"0000:03:00.0", "0000:03:00.1", "mlx5_core.sf.2", "mlx5_core.sf.3"});
    CHECK(rdma_names(inv) == Names{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"});
    // oob_net0 hangs off the SoC's platform device, not an mlx5 function.
    CHECK(netdev_names(inv) == Names{"en3f0pf0sf0", "en3f1pf1sf0", "enp3s0f0s0", "enp3s0f1s0", "p0",
                                     "p1", "pf0hpf", "pf0vf0", "pf1hpf"});

    const Function& pf0 = function(inv, "0000:03:00.0");
    CHECK(pf0.netdevs == Names{"en3f0pf0sf0", "p0", "pf0hpf", "pf0vf0"});
    CHECK(pf0.rdma_devices == Names{"mlx5_0"});

    const Function& sf = function(inv, "mlx5_core.sf.2");
    CHECK(sf.kind == FunctionKind::sf);
    CHECK(to_string(sf.kind) == "SF");
    CHECK(sf.sysfs_path == "/sys/bus/auxiliary/devices/mlx5_core.sf.2");
    CHECK(sf.device_path == "/sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0/mlx5_core.sf.2");
    CHECK(sf.pci_address == "0000:03:00.0");
    CHECK(sf.parent_pf.value == "0000:03:00.0");
    CHECK(sf.sfnum.value == 0U);
    CHECK(sf.sfnum.source.ref == "/sys/bus/auxiliary/devices/mlx5_core.sf.2/sfnum");
    CHECK(sf.driver.value == "mlx5_core.sf");
    CHECK(sf.vendor.gap->reason == GapReason::not_applicable);
    CHECK(sf.dpa.value->support == DpaSupport::yes);
    CHECK(sf.dpa.source.ref ==
          "inherited from PF 0000:03:00.0, inferred from PCI device id 0xa2dc");
    CHECK(sf.netdevs == Names{"enp3s0f0s0"});
    CHECK(sf.rdma_devices == Names{"mlx5_2"});
    CHECK(function(inv, "mlx5_core.sf.3").parent_pf.value == "0000:03:00.1");

    CHECK(rdma(inv, "mlx5_2").function.value == "mlx5_core.sf.2");
    CHECK(rdma(inv, "mlx5_2").ports.at(0).netdevs.value == Names{"enp3s0f0s0"});
    CHECK(rdma(inv, "mlx5_0").ports.at(0).netdevs.value == Names{"p0"});

    const NetDev& hpf = netdev(inv, "pf0hpf");
    REQUIRE(hpf.port_name.has_value());
    CHECK(hpf.port_name->flavour == PortFlavour::pcipf);
    CHECK(hpf.port_name->pf == 0U);
    CHECK(hpf.phys_switch_id.value == "5aa2e1fffe730000");
    CHECK(is_representor(hpf));
    const NetDev& vf = netdev(inv, "pf0vf0");
    CHECK(vf.port_name->flavour == PortFlavour::pcivf);
    CHECK(vf.port_name->index == 0U);
    CHECK(netdev(inv, "en3f1pf1sf0").port_name->flavour == PortFlavour::pcisf);
    CHECK(netdev(inv, "en3f1pf1sf0").port_name->pf == 1U);
    const NetDev& uplink = netdev(inv, "p1");
    CHECK(uplink.port_name->flavour == PortFlavour::physical);
    CHECK_FALSE(is_representor(uplink));
    CHECK(uplink.mtu.value == 9216U);
}

TEST_CASE("scan_devices: ConnectX-7 InfiniBand PF with 4 VFs") {
    const auto fs = test::sysfs_fixture("cx7-vfs");
    const auto inv = scan_devices(fs);
    CHECK(inv.gaps.empty());
    CHECK(function_names(inv) ==
          Names{"0000:81:00.0", "0000:81:00.1", "0000:81:00.2", "0000:81:00.3", "0000:81:00.4"});
    const Function& pf = function(inv, "0000:81:00.0");
    CHECK(pf.product.value == "ConnectX-7");
    CHECK(pf.numa_node.value == 1);
    CHECK(pf.sriov_totalvfs.value == 16U);
    CHECK(pf.sriov_numvfs.value == 4U);
    CHECK(pf.virtfns == Names{"0000:81:00.1", "0000:81:00.2", "0000:81:00.3", "0000:81:00.4"});
    CHECK(pf.dpa.value->support == DpaSupport::yes);
    CHECK(pf.dpa.source.ref == "inferred from PCI device id 0x1021");

    const Function& vf = function(inv, "0000:81:00.3");
    CHECK(vf.kind == FunctionKind::vf);
    CHECK(vf.parent_pf.value == "0000:81:00.0");
    CHECK(vf.parent_pf.source.ref == "/sys/bus/pci/devices/0000:81:00.3/physfn");
    CHECK(vf.device.value == 0x101eU);
    CHECK(vf.product.value == "ConnectX family mlx5Gen Virtual Function");
    CHECK(vf.sriov_totalvfs.gap->reason == GapReason::not_applicable);
    CHECK(vf.dpa.value->support == DpaSupport::yes);
    CHECK(vf.dpa.source.ref ==
          "inherited from PF 0000:81:00.0, inferred from PCI device id 0x1021");
    CHECK(vf.rdma_devices == Names{"mlx5_3"});
    CHECK(vf.netdevs.empty());

    const RdmaPort& port = rdma(inv, "mlx5_0").ports.at(0);
    CHECK(port.link_layer.value == "InfiniBand");
    CHECK(port.lid.value == 0x1aU);
    CHECK(port.rate.value->gbps == doctest::Approx(400.0));
    CHECK(port.rate.value->width == "4X");
    CHECK(port.rate.value->speed == "NDR");
    CHECK(port.gid_count.value == 1U);
    CHECK(port.gid_types.value == Names{"IB/RoCE v1"});
    // No ndevs on InfiniBand: the IPoIB netdev comes from device/net.
    CHECK(port.netdevs.value == Names{"ibp129s0"});
    CHECK(port.netdevs.source.ref == "/sys/class/infiniband/mlx5_0/device/net");
    CHECK(rdma(inv, "mlx5_3").function.value == "0000:81:00.3");
    CHECK(rdma(inv, "mlx5_3").ports.at(0).lid.value == 0x22U);
    CHECK(rdma(inv, "mlx5_3").ports.at(0).netdevs.value == Names{});

    const NetDev& ipoib = netdev(inv, "ibp129s0");
    CHECK(ipoib.mtu.value == 4092U);
    CHECK(ipoib.address.value == "00:00:10:49:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:a0:00:00");
}

TEST_CASE("scan_devices: ConnectX-6 Dx has no DPA; ports down and polling") {
    const auto fs = test::sysfs_fixture("cx6dx");
    const auto inv = scan_devices(fs);
    CHECK(inv.gaps.empty());
    const Function& pf = function(inv, "0000:3b:00.1");
    CHECK(pf.product.value == "ConnectX-6 Dx");
    CHECK(pf.numa_node.value == -1);
    CHECK(pf.dpa.value->support == DpaSupport::no);
    const RdmaPort& down = rdma(inv, "mlx5_0").ports.at(0);
    CHECK(down.state.value->number == 1U);
    CHECK(down.state.value->name == "DOWN");
    CHECK(down.phys_state.value->number == 3U);
    CHECK(down.phys_state.value->name == "Disabled");
    CHECK(down.rate.value->gbps == doctest::Approx(10.0));
    const RdmaPort& polling = rdma(inv, "mlx5_1").ports.at(0);
    CHECK(polling.state.value->name == "INIT");
    CHECK(polling.phys_state.value->number == 2U);
    CHECK(polling.phys_state.value->name == "Polling");
    CHECK(polling.rate.value->speed == "EDR");
    CHECK(netdev(inv, "ens2f0np0").operstate.value == "down");
    CHECK(netdev(inv, "ens2f1np1").operstate.value == "lowerlayerdown");
}

TEST_CASE("scan_devices: 64 PFs x 8 VFs are all found and linked") {
    const auto fs = test::sysfs_fixture("scale");
    const auto inv = scan_devices(fs);
    CHECK(inv.gaps.empty());
    CHECK(inv.functions.size() == 576);
    CHECK(inv.rdma_devices.size() == 576);
    CHECK(inv.netdevs.size() == 576);
    std::size_t vfs = 0;
    for (const auto& fn : inv.functions) {
        CHECK(fn.rdma_devices.size() == 1);
        CHECK(fn.netdevs.size() == 1);
        CHECK(fn.dpa.value->support == DpaSupport::yes);
        if (fn.kind == FunctionKind::vf) {
            ++vfs;
            REQUIRE(fn.parent_pf.ok());
            CHECK(function(inv, *fn.parent_pf.value).kind == FunctionKind::pf);
        } else {
            CHECK(fn.virtfns.size() == 8);
        }
    }
    CHECK(vfs == 512);
    CHECK(function(inv, "0000:4f:00.0").virtfns.back() == "0000:4f:01.0");
    for (const auto& dev : inv.rdma_devices) {
        CHECK(dev.function.ok());
        CHECK(dev.ports.at(0).gid_count.value == 4U);
    }
}

TEST_CASE("scan_devices: malformed attributes become gaps; the rest is still reported") {
    const auto fs = test::sysfs_fixture("malformed");
    const auto inv = scan_devices(fs);
    CHECK(function_names(inv) == Names{"0000:08:00.0", "0000:08:00.1"});
    CHECK(rdma_names(inv) == Names{"mlx5_0", "mlx5_1"});
    REQUIRE(inv.gaps.size() == 3);
    CHECK(inv.gaps[0].reason == GapReason::not_found);  // dangling bus entry
    CHECK(inv.gaps[0].message == "/sys/bus/pci/devices/0000:09:00.0: no such file or directory");
    CHECK(inv.gaps[1].message == "/sys/class/infiniband/mlx5_loop_a: symbolic link loop");
    CHECK(inv.gaps[2].message == "/sys/class/infiniband/mlx5_loop_b: symbolic link loop");

    const Function& fn = function(inv, "0000:08:00.0");
    const std::string base = "/sys/bus/pci/devices/0000:08:00.0/";
    CHECK(fn.vendor.value == 0x15b3U);
    CHECK(fn.device.value == 0x1021U);
    CHECK(fn.driver.value == "mlx5_core");
    CHECK(fn.dpa.value->support == DpaSupport::yes);
    check_gap(fn.numa_node, GapReason::malformed, base + "numa_node: empty");
    check_gap(fn.subsystem_device, GapReason::malformed,
              base + "subsystem_device: binary data, not text: \"\\x00\\xff\\xfe\\x80junk\\x01\"");
    check_gap(fn.sriov_totalvfs, GapReason::malformed,
              base + "sriov_totalvfs: larger than 4096 bytes");
    check_gap(fn.sriov_numvfs, GapReason::malformed,
              base + "sriov_numvfs: is a FIFO, not a regular file");
    CHECK(fn.sriov_numvfs.source.ref == base + "sriov_numvfs");

    const NetDev& nd = netdev(inv, "ens8np0");
    check_gap(nd.mtu, GapReason::malformed,
              "/sys/class/net/ens8np0/mtu: not a decimal number: \"abc\"");
    check_gap(nd.operstate, GapReason::malformed,
              "/sys/class/net/ens8np0/operstate: is a FIFO, not a regular file");
    check_gap(nd.address, GapReason::not_found,
              "/sys/class/net/ens8np0/address: no such file or directory");

    const RdmaDevice& dev = rdma(inv, "mlx5_0");
    const std::string ib = "/sys/class/infiniband/mlx5_0/";
    CHECK(dev.function.value == "0000:08:00.0");
    check_gap(dev.fw_ver, GapReason::malformed,
              ib + "fw_ver: binary data, not text: \"\\xde\\xad\\xbe\\xef\"");
    check_gap(dev.node_guid, GapReason::malformed, ib + "node_guid: empty");
    CHECK(dev.sys_image_guid.ok());
    const RdmaPort& port = dev.ports.at(0);
    check_gap(port.state, GapReason::malformed,
              ib + "ports/1/state: not \"<number>: <name>\": \"garbage\"");
    check_gap(port.rate, GapReason::malformed, ib + "ports/1/rate: larger than 4096 bytes");
    CHECK(port.phys_state.ok());
    CHECK(port.link_layer.value == "Ethernet");

    // The second function is untouched by its sibling's damage.
    const Function& ok = function(inv, "0000:08:00.1");
    CHECK(ok.numa_node.value == 0);
    CHECK(ok.sriov_numvfs.value == 0U);
    CHECK(ok.gaps.empty());
    CHECK(rdma(inv, "mlx5_1").fw_ver.value == "28.39.1002");
}

TEST_CASE("scan_devices: unreadable (mode 000) files and directories are permission gaps") {
    const auto fs = test::sysfs_fixture("malformed");
    DeviceInventory inv;
    {
        const test::AsUnprivileged nobody;
        inv = scan_devices(fs);
    }
    const Function& fn = function(inv, "0000:08:00.0");
    check_gap(fn.subsystem_vendor, GapReason::permission_denied,
              "/sys/bus/pci/devices/0000:08:00.0/subsystem_vendor: permission denied");
    const RdmaDevice& dev = rdma(inv, "mlx5_0");
    check_gap(dev.board_id, GapReason::permission_denied,
              "/sys/class/infiniband/mlx5_0/board_id: permission denied");
    const RdmaPort& port = dev.ports.at(0);
    check_gap(port.gid_count, GapReason::permission_denied,
              "/sys/class/infiniband/mlx5_0/ports/1/gids: permission denied");
    CHECK(port.gid_types.gap->reason == GapReason::permission_denied);
    // Without the GID table the port falls back to the function's netdevs.
    CHECK(port.netdevs.value == Names{"ens8np0"});
    CHECK(fn.vendor.value == 0x15b3U);
    CHECK(function(inv, "0000:08:00.1").subsystem_vendor.value == 0x15b3U);
}

TEST_CASE("scan_devices: as root the same mode-000 files are readable (control)") {
    const auto fs = test::sysfs_fixture("malformed");
    const auto inv = scan_devices(fs);
    if (::geteuid() == 0) {
        CHECK(function(inv, "0000:08:00.0").subsystem_vendor.value == 0x15b3U);
        CHECK(rdma(inv, "mlx5_0").ports.at(0).gid_count.value == 2U);
    }
}

}  // namespace rdmi::sysfs
