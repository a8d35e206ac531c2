// The devices probe's catalog entries: what each of its check ids means and how to fix it.
// "{dpa-devices}" in a fix is filled from the PCI product table when the catalog is gathered.
#pragma once

#include "core/finding_catalog.hpp"

namespace rdmi {

namespace finding {

inline constexpr FindingInfo rdmi_dpa_device{
    "rdmi-dpa-device", "report (devices probe)",
    "Which devices can run RDMI on the DPA, or why none can (no NVIDIA device, no "
    "DPA-capable one, no driver, no RDMA device, port down).",
    "Run on a host with a {dpa-devices} (the devices with a DPA), or on the BlueField's "
    "Arm side; load mlx5_core and mlx5_ib; a port physically up but not ACTIVE needs a "
    "subnet manager (InfiniBand: sminfo, opensm) or its netdev up (Ethernet: ip link set "
    "NETDEV up).",
    Purposes::run};
inline constexpr FindingInfo driver_mlx5_core{
    "driver-mlx5-core", "report (devices probe)",
    "The mlx5_core kernel module is loaded (built in or as a module).",
    "modprobe mlx5_core (as root).", Purposes::run};
inline constexpr FindingInfo driver_mlx5_ib{
    "driver-mlx5-ib", "report (devices probe)",
    "The mlx5_ib kernel module is loaded, so the devices have RDMA ports.",
    "modprobe mlx5_ib (as root).", Purposes::run};
inline constexpr FindingInfo uverbs_access{
    "uverbs-access", "report (devices probe)",
    "The /dev/infiniband character devices exist and this user can open them.",
    "modprobe ib_uverbs; in a container, pass --device /dev/infiniband; add the user "
    "to the group owning /dev/infiniband/uverbs* (often rdma) or fix the udev rule.",
    Purposes::run};
inline constexpr FindingInfo verbs_devices{
    "verbs-devices", "report (devices probe)",
    "What libibverbs lists and reports for each device (live system only).",
    "Install libibverbs1 and rdma-core's provider package (ibverbs-providers); in a "
    "container, pass --device /dev/infiniband.",
    Purposes::run};
inline constexpr FindingInfo doca_devices{
    "doca-devices", "report (devices probe)",
    "What DOCA lists (doca_devinfo_create_list) and which devices it says have a "
    "DPA (live system only).",
    "Install DOCA, and check that the DOCA libraries can be loaded (see "
    "rdmi-symbols-runtime).",
    Purposes::run};
inline constexpr FindingInfo hugepages{
    "hugepages", "report (devices probe)",
    "Information: the 2M and 1G hugepage pools and the hugetlbfs mounts.", "", Purposes::run};

}  // namespace finding

/// The devices probe's entries, in catalog order (its row lists them).
inline constexpr const FindingInfo* kDevicesFindings[] = {
    &finding::rdmi_dpa_device, &finding::driver_mlx5_core, &finding::driver_mlx5_ib,
    &finding::uverbs_access,   &finding::verbs_devices,    &finding::doca_devices,
    &finding::hugepages};

}  // namespace rdmi
