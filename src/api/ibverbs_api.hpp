// Hand-written minimal libibverbs declarations (no libibverbs-dev in the build) and the typed
// function table the verbs probe resolves from libibverbs.so.1.
//
// Layouts follow rdma-core's public libibverbs/verbs.h; only the fields named below are read:
//  * struct ibv_device_attr: the whole struct is declared (232 bytes on LP64) because
//    ibv_query_device fills all of it; we read fw_ver, node_guid, sys_image_guid, max_mr_size,
//    page_size_cap, vendor_id, vendor_part_id, hw_ver, the max_* limits, device_cap_flags,
//    atomic_cap, max_pkeys, local_ca_ack_delay, phys_port_cnt.
//  * struct ibv_device_attr_ex: declared only up to device_cap_flags_ex; its size is passed as
//    attr_size, and libibverbs fills extended fields only when attr_size reaches their end
//    (offsetofend checks in ibv_cmd_query_device_any), so the shorter struct is safe.
//  * struct ibv_port_attr: declared up to active_speed_ex plus a reserve; we read state,
//    max_mtu, active_mtu, gid_tbl_len, port_cap_flags, lid, sm_lid, active_width,
//    active_speed, phys_state, link_layer.
//  * struct ibv_context: device, the 32-pointer ibv_context_ops, cmd_fd, async_fd,
//    num_comp_vectors, mutex, abi_compat; only abi_compat is read (to find verbs_context).
//  * struct ibv_gid_entry: declared whole (32 bytes); its size is passed as entry_size, as
//    verbs.h's inline ibv_query_gid_table does.
//  * struct verbs_context "grows up": new ops are prepended, so an op's distance *before*
//    `context` is fixed ABI. query_device_ex sits 13 words before it (10 ops, has_comp_mask,
//    sz, then query_device_ex itself); `sz` is the word right before `context`.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "loader/dynamic_library.hpp"

namespace rdmi::ibv {

/// struct ibv_device and struct ibv_context_ops are opaque to us.
struct Device;

/// enum ibv_atomic_cap.
enum class AtomicCap : int { none = 0, hca = 1, glob = 2 };

/// struct ibv_device_attr (verbs.h), field for field.
struct DeviceAttr {
    char fw_ver[64];
    std::uint64_t node_guid;  ///< big-endian
    std::uint64_t sys_image_guid;
    std::uint64_t max_mr_size;
    std::uint64_t page_size_cap;
    std::uint32_t vendor_id;
    std::uint32_t vendor_part_id;
    std::uint32_t hw_ver;
    int max_qp;
    int max_qp_wr;
    unsigned int device_cap_flags;
    int max_sge;
    int max_sge_rd;
    int max_cq;
    int max_cqe;
    int max_mr;
    int max_pd;
    int max_qp_rd_atom;
    int max_ee_rd_atom;
    int max_res_rd_atom;
    int max_qp_init_rd_atom;
    int max_ee_init_rd_atom;
    int atomic_cap;  ///< enum ibv_atomic_cap
    int max_ee;
    int max_rdd;
    int max_mw;
    int max_raw_ipv6_qp;
    int max_raw_ethy_qp;
    int max_mcast_grp;
    int max_mcast_qp_attach;
    int max_total_mcast_qp_attach;
    int max_ah;
    int max_fmr;
    int max_map_per_fmr;
    int max_srq;
    int max_srq_wr;
    int max_srq_sge;
    std::uint16_t max_pkeys;
    std::uint8_t local_ca_ack_delay;
    std::uint8_t phys_port_cnt;
};

/// struct ibv_odp_caps.
struct OdpCaps {
    std::uint64_t general_caps;
    std::uint32_t rc_odp_caps;
    std::uint32_t uc_odp_caps;
    std::uint32_t ud_odp_caps;
};

/// The head of struct ibv_device_attr_ex, through device_cap_flags_ex.
struct DeviceAttrEx {
    DeviceAttr orig_attr;
    std::uint32_t comp_mask;
    OdpCaps odp_caps;
    std::uint64_t completion_timestamp_mask;
    std::uint64_t hca_core_clock;
    std::uint64_t device_cap_flags_ex;
};

/// struct ibv_port_attr (verbs.h) with room for fields newer libraries may add.
struct PortAttr {
    int state;    ///< enum ibv_port_state
    int max_mtu;  ///< enum ibv_mtu
    int active_mtu;
    int gid_tbl_len;
    std::uint32_t port_cap_flags;
    std::uint32_t max_msg_sz;
    std::uint32_t bad_pkey_cntr;
    std::uint32_t qkey_viol_cntr;
    std::uint16_t pkey_tbl_len;
    std::uint16_t lid;
    std::uint16_t sm_lid;
    std::uint8_t lmc;
    std::uint8_t max_vl_num;
    std::uint8_t sm_sl;
    std::uint8_t subnet_timeout;
    std::uint8_t init_type_reply;
    std::uint8_t active_width;
    std::uint8_t active_speed;
    std::uint8_t phys_state;
    std::uint8_t link_layer;
    std::uint8_t flags;
    std::uint16_t port_cap_flags2;
    std::uint32_t active_speed_ex;
    std::uint8_t reserve[64];  ///< not in verbs.h: slack against a provider writing more
};

/// union ibv_gid.
struct Gid {
    std::uint8_t raw[16];
};

/// struct ibv_gid_entry (verbs.h, rdma-core v30 and later), field for field.
struct GidEntry {
    Gid gid;
    std::uint32_t gid_index;
    std::uint32_t port_num;
    std::uint32_t gid_type;      ///< enum ibv_gid_type: 0 IB, 1 RoCE v1, 2 RoCE v2
    std::uint32_t ndev_ifindex;  ///< 0: no netdev (InfiniBand)
};

/// struct ibv_context, field for field (only abi_compat is read).
struct Context {
    Device* device;
    void* ops[32];  ///< struct ibv_context_ops: 32 function pointers
    int cmd_fd;
    int async_fd;
    int num_comp_vectors;
    pthread_mutex_t mutex;
    void* abi_compat;  ///< (void*)UINTPTR_MAX when a struct verbs_context surrounds this one
};

static_assert(sizeof(DeviceAttr) == 232 || sizeof(void*) != 8, "ibv_device_attr is 232 bytes");
static_assert(offsetof(DeviceAttrEx, odp_caps) == 240 || sizeof(void*) != 8);
static_assert(offsetof(DeviceAttrEx, device_cap_flags_ex) == 280 || sizeof(void*) != 8);
static_assert(offsetof(PortAttr, link_layer) == 46);
static_assert(sizeof(GidEntry) == 32);

/// Exported entry points, with the ABI version node each is looked up under.
namespace fn {
using get_device_list = Device** (*)(int* num_devices);
using free_device_list = void (*)(Device** list);
using get_device_name = const char* (*)(Device* device);
using get_device_guid = std::uint64_t (*)(Device* device);
using open_device = Context* (*)(Device* device);
using close_device = int (*)(Context* context);
using query_device = int (*)(Context* context, DeviceAttr* attr);
/// ibv_query_port@IBVERBS_1.1: the real symbol behind verbs.h's static inline wrapper.
using query_port = int (*)(Context* context, std::uint8_t port_num, PortAttr* attr);
using query_gid = int (*)(Context* context, std::uint8_t port_num, int index, Gid* gid);
/// _ibv_query_gid_table@IBVERBS_1.11: the real symbol behind verbs.h's static inline
/// ibv_query_gid_table, which passes sizeof(struct ibv_gid_entry) as entry_size. Every valid
/// entry of every port in one call; the count, or a negative errno.
using query_gid_table = long (*)(Context* context, GidEntry* entries, std::size_t max_entries,
                                 std::uint32_t flags, std::size_t entry_size);
/// verbs_context::query_device_ex.
using query_device_ex = int (*)(Context* context, const void* input, DeviceAttrEx* attr,
                                std::size_t attr_size);
}  // namespace fn

/// The symbol version every entry point above has in libibverbs.map ("IBVERBS_1.1"), except:
inline constexpr const char* kVersionNode = "IBVERBS_1.1";
/// _ibv_query_gid_table's node (docs/reference/sysfs-formats.md#gid-table).
inline constexpr const char* kGidTableVersionNode = "IBVERBS_1.11";

/// The typed table. Required entries are non-null after bind().
struct Api {
    fn::get_device_list get_device_list = nullptr;
    fn::free_device_list free_device_list = nullptr;
    fn::get_device_name get_device_name = nullptr;
    fn::get_device_guid get_device_guid = nullptr;  ///< optional
    fn::open_device open_device = nullptr;
    fn::close_device close_device = nullptr;
    fn::query_device query_device = nullptr;
    fn::query_port query_port = nullptr;
    fn::query_gid query_gid = nullptr;  ///< optional
    /// Optional: absent before rdma-core v30, and then each entry is asked with query_gid.
    fn::query_gid_table query_gid_table = nullptr;
};

/// Resolves the table: dlvsym(name, "IBVERBS_1.1") first (the versioned default the
/// static-inline wrappers of verbs.h end up calling), then plain dlsym for unversioned builds.
/// A Gap (error) names the first missing required symbol.
Result<Api> bind(const DynamicLibrary& lib);

/// verbs_context::query_device_ex of an opened context, or nullptr when the context is not an
/// extended one or its provider's verbs_context is too small to have the op (verbs.h's
/// verbs_get_ctx_op).
fn::query_device_ex query_device_ex_op(Context* context);

/// One named bit of a flags word.
struct FlagName {
    std::uint64_t bit;
    std::string_view name;
};

/// Names of enum ibv_device_cap_flags bits (IBV_DEVICE_RESIZE_MAX_WR ... ), lower case
/// without the prefix ("resize_max_wr").
const std::vector<FlagName>& device_cap_flag_names();
/// Names of enum ibv_odp_general_caps bits ("support", "support_implicit").
const std::vector<FlagName>& odp_general_cap_names();
/// Names of enum ibv_odp_transport_cap_bits ("send", "recv", "write", "read", "atomic",
/// "srq_recv").
const std::vector<FlagName>& odp_transport_cap_names();

/// Decoded flags: the names of the known set bits and the unknown remainder.
struct DecodedFlags {
    std::vector<std::string> names;
    std::uint64_t unknown_mask = 0;
};

/// Splits `value` into named bits (in table order) and the rest.
DecodedFlags decode_flags(std::uint64_t value, const std::vector<FlagName>& table);

/// enum ibv_port_state name ("ACTIVE"), as in sysfs; "" for unknown values.
std::string_view port_state_name(int state);
/// enum ibv_mtu in bytes (IBV_MTU_1024 = 3 -> 1024); 0 for unknown values.
std::uint32_t mtu_bytes(int mtu);
/// IBV_LINK_LAYER_*: "Unspecified", "InfiniBand", "Ethernet"; "" for unknown values.
std::string_view link_layer_name(std::uint8_t link_layer);
/// active_width: 1 -> "1X", 2 -> "4X", 4 -> "8X", 8 -> "12X", 16 -> "2X"; "" otherwise.
std::string_view width_name(std::uint8_t width);
/// active_speed: 1 SDR, 2 DDR, 4 QDR, 8 FDR10, 16 FDR, 32 EDR, 64 HDR, 128 NDR; "" otherwise.
std::string_view speed_name(std::uint8_t speed);
/// Physical port state name as ibv_devinfo prints it ("LINK_UP"); "" for unknown values.
std::string_view phys_state_name(std::uint8_t phys_state);
/// enum ibv_atomic_cap name: "none", "hca", "glob"; "" otherwise.
std::string_view atomic_cap_name(int cap);

/// enum ibv_gid_type in the kernel's gid_attrs/types spelling: 0 (IB) and 1 (RoCE v1) are
/// "IB/RoCE v1", 2 is "RoCE v2"; "" for unknown values.
std::string_view gid_type_name(std::uint32_t gid_type);

/// A big-endian GUID as "%04x:%04x:%04x:%04x" (the sysfs spelling).
std::string format_guid(std::uint64_t big_endian_guid);
/// A GID in the kernel's %pI6 spelling (eight groups of four hex digits).
std::string format_gid(const Gid& gid);

}  // namespace rdmi::ibv
