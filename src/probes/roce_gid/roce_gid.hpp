// The roce-gid probe: every ACTIVE RoCE port that has a netdev carries a RoCE v2 GID with an
// IP address, from the GID tables the sysfs inventory keeps
// (docs/reference/sysfs-formats.md#gid-table).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "json/json_common.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi {

namespace finding {
inline constexpr FindingInfo roce_gid{
    "roce-gid", "report (roce-gid probe)",
    "Every ACTIVE Ethernet (RoCE) port of a function with a netdev has a RoCE v2 GID that "
    "carries an IP address (IPv4-mapped, or IPv6 other than link-local): RoCE v2 peers and "
    "rdma_cm address the port by it, and the kernel adds it only for an address on the "
    "netdev.",
    "Give the port's netdev an IP address and bring it up (ip addr add <address>/<prefix> dev "
    "<netdev>; ip link set <netdev> up); rdma link show names the netdev of each port, and the "
    "kernel then adds the RoCE v2 GID itself.",
    Purposes::run};
}  // namespace finding

/// The probe's entries (its registry row lists them).
inline constexpr const FindingInfo* kRoceGidFindings[] = {&finding::roce_gid};

/// A RoCE v2 GID of a port that carries an IP address.
struct RoceIpGid {
    std::uint32_t index = 0;  ///< its entry in the port's gids/
    std::string address;      ///< "::ffff:192.0.2.10", "2001:db8::10"
};

/// One rdma device port and its verdict.
struct RoceGidPort {
    std::string rdma_device;  ///< "mlx5_0"
    std::uint32_t port = 0;
    std::string function;              ///< the owning function's name; empty when unknown
    std::vector<std::string> netdevs;  ///< the port's netdevs (sysfs inventory)
    /// pass, fail or skip; nullopt: not applicable (InfiniBand, not ACTIVE, no netdev).
    std::optional<Status> status;
    std::string message;              ///< the verdict in words (why, when not applicable)
    std::vector<RoceIpGid> ip_gids;   ///< its RoCE v2 GIDs with an IP address, by index
    std::vector<Provenance> sources;  ///< the files the verdict rests on
};

/// What the roce-gid probe found.
struct RoceGidFacts {
    std::vector<RoceGidPort> ports;  ///< every port of every rdma device, in inventory order
    /// The `roce-gid` check; nullopt when no port is an ACTIVE RoCE port with a netdev (no
    /// device, InfiniBand only, every port down), so such trees report as before.
    std::optional<Check> check;
};

/// True when a GID carries an IP address: IPv4-mapped (::ffff:a.b.c.d) or an IPv6 address
/// outside fe80::/10, multicast and the unspecified address. Pure.
bool gid_carries_ip(const sysfs::Gid& gid);

/// The GID in IPv6 notation, shortest form ("fe80::e42:a1ff:fe00:0"). Pure.
std::string gid_address(const sysfs::Gid& gid);

/// The verdict on one port. Pure.
RoceGidPort judge_roce_port(const sysfs::RdmaDevice& device, const sysfs::RdmaPort& port);

/// The `roce-gid` check over `ports`: fail when any fails (each named, with its netdev and
/// the commands that fix it), else skip when any could not be judged, else pass; nullopt when
/// none was judged. Pure.
std::optional<Check> roce_gid_check(const std::vector<RoceGidPort>& ports);

/// The probe: every port of the system probe's inventory judged. Pure: the GID tables were
/// read by the inventory scan.
RoceGidFacts probe_roce_gid(const sysfs::DeviceInventory& inventory);

/// The report's `roce_gid` section: per port, its netdevs, its verdict and its IP GIDs. Pure.
json::Json roce_gid_json(const RoceGidFacts& facts);

}  // namespace rdmi
