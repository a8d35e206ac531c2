// The gate's catalog entries: one per requirement `check` judges (besides module-<name>, the
// install probe's, and the application checks, the `symbols` command's).
#pragma once

#include "core/consistency_rule.hpp"
#include "core/finding_catalog.hpp"

namespace rdmi {

namespace finding {

inline constexpr FindingInfo min_version{
    "min-version", "check --min-version",
    "The RDMI stack's matched version is at least the required one.",
    "Upgrade DOCA to the required version or newer.", Purposes::both};
inline constexpr FindingInfo max_version{
    "max-version", "check --max-version",
    "The RDMI stack's matched version is at most the required one.",
    "Install the required DOCA version or an older one.", Purposes::both};
inline constexpr FindingInfo exact_version{
    "exact-version", "check --exact-version",
    "The RDMI stack's matched version is exactly the required one.",
    "Install the required DOCA version.", Purposes::both};
inline constexpr FindingInfo consistent_versions{"consistent-versions",
                                                 "check --require-consistent", kConsistencyRule,
                                                 kConsistencyFix, Purposes::both};
inline constexpr FindingInfo symbol{
    "symbol-<name>", "check --require-symbol", "libdoca_rdmi exports the symbol.",
    "Install a DOCA release that provides it, or stop using it.", Purposes::both};
inline constexpr FindingInfo stable{
    "stable-<name>", "check --require-stable",
    "libdoca_rdmi exports the symbol and it is neither experimental nor deprecated.",
    "Use a stable replacement or wait for the release that stabilises it; a skip "
    "means nothing marks its stability: install DOCA's headers.",
    Purposes::build};
inline constexpr FindingInfo device{
    "device", "check --require-device",
    "An NVIDIA RDMA/BlueField device (or the named one) is present.",
    "Run on a host with the device, or check that mlx5_core is loaded.", Purposes::run};
inline constexpr FindingInfo dpa{
    "dpa", "check --require-dpa", "The required device has a DPA.",
    "DOCA RDMI needs a DPA, which only a {dpa-devices} has; a skip means rerun on the "
    "live host with DOCA installed.",
    Purposes::run};
inline constexpr FindingInfo port_active{
    "port-active", "check --require-port-active", "The required device has an ACTIVE port.",
    "Load mlx5_ib. A port physically up (phys_state LinkUp) but not ACTIVE waits for "
    "configuration: on InfiniBand a subnet manager (sminfo; opensm), on Ethernet its "
    "netdev (ip link set NETDEV up); only a port physically down needs its cable and "
    "link checked (mlxlink -d PCI).",
    Purposes::run};

}  // namespace finding

/// The gate's entries, in catalog order (check_catalog() lists them last).
inline constexpr const FindingInfo* kGateFindings[] = {
    &finding::min_version,   &finding::max_version,
    &finding::exact_version, &finding::consistent_versions,
    &finding::symbol,        &finding::stable,
    &finding::device,        &finding::dpa,
    &finding::port_active};

}  // namespace rdmi
