// The NVIDIA/Mellanox PCI device-id table: product names, VF ids and DPA presence.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdmi::sysfs {

/// PCI vendor id of Mellanox Technologies / NVIDIA Networking.
inline constexpr std::uint32_t kMellanoxVendorId = 0x15b3;

/// What a function is to the probe: only network functions are RDMA NICs.
enum class FunctionRole {
    network,     ///< an mlx5 network function (ConnectX, BlueField integrated controller)
    management,  ///< a BlueField SoC management interface (rshim/DMA), seen from the host
    other,       ///< an NVIDIA function that is no RDMA NIC (switch, SNAP, Data Direct, ...)
};

/// "network", "management" or "other".
std::string_view to_string(FunctionRole role);

/// Whether a device has a Data Path Accelerator.
enum class DpaSupport { yes, no, unknown };

/// "yes", "no" or "unknown".
std::string_view to_string(DpaSupport support);

/// What the table knows about one device id.
struct PciProduct {
    std::uint32_t device_id = 0;
    std::string_view name;  ///< "ConnectX-7", "BlueField-3 integrated ConnectX-7 ..."
    bool virtual_function = false;
    bool bluefield = false;  ///< a BlueField (integrated NIC or SoC function)
    DpaSupport dpa = DpaSupport::no;
    std::string_view dpa_note;  ///< why, when not plainly yes/no ("unconfirmed")
    FunctionRole role = FunctionRole::network;
};

/// The row for `device_id` (vendor 0x15b3), or nullopt when the id is not in the table.
std::optional<PciProduct> find_product(std::uint32_t device_id);

/// The role of `device_id`; an id the table does not know counts as a network function, so
/// that a newer NIC is still shown and judged.
FunctionRole role_of(std::uint32_t device_id);

/// The products whose rows say DPA "yes", as every message and fix names them ("BlueField-3 or
/// ConnectX-7/8/9"): generated from the table's DPA column, so that no wording can name a
/// product the column does not.
std::string dpa_products_text();

/// In `text`, every `{dpa-devices}` replaced by dpa_products_text() (the catalog's texts, which
/// a lower layer writes, carry the placeholder).
std::string with_dpa_products(std::string_view text);

}  // namespace rdmi::sysfs
