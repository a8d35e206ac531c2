// libibverbs symbol binding, the verbs_context op lookup, and the verbs.h enum names.
#include "api/ibverbs_api.hpp"

#include <cstdio>

namespace rdmi::ibv {
namespace {

void* lookup(const DynamicLibrary& lib, const char* name) {
    // libibverbs exports IBVERBS_1.0 compat versions of several of these; the 1.1 node is the
    // default the headers bind to, so ask for it explicitly.
    if (void* sym = lib.versioned_symbol(name, kVersionNode)) return sym;
    return lib.symbol(name);
}

template <typename Fn>
void bind_one(const DynamicLibrary& lib, const char* name, Fn& out) {
    out = reinterpret_cast<Fn>(lookup(lib, name));  // NOLINT: dlsym's documented use
}

// verbs.h: #define __VERBS_ABI_IS_EXTENDED ((void *)UINTPTR_MAX)
const void* const kAbiIsExtended = reinterpret_cast<void*>(UINTPTR_MAX);  // NOLINT

// Words between verbs_context::query_device_ex and verbs_context::context: the op itself,
// ibv_destroy_flow, ABI_placeholder2, ibv_create_flow, ABI_placeholder1, open_qp, create_qp_ex,
// get_srq_num, create_srq_ex, open_xrcd, close_xrcd, has_comp_mask, sz.
constexpr std::size_t kQueryDeviceExWordsBefore = 13;

}  // namespace

Result<Api> bind(const DynamicLibrary& lib) {
    Api api;
    bind_one(lib, "ibv_get_device_list", api.get_device_list);
    bind_one(lib, "ibv_free_device_list", api.free_device_list);
    bind_one(lib, "ibv_get_device_name", api.get_device_name);
    bind_one(lib, "ibv_get_device_guid", api.get_device_guid);
    bind_one(lib, "ibv_open_device", api.open_device);
    bind_one(lib, "ibv_close_device", api.close_device);
    bind_one(lib, "ibv_query_device", api.query_device);
    bind_one(lib, "ibv_query_port", api.query_port);
    bind_one(lib, "ibv_query_gid", api.query_gid);
    // Only the versioned name: an unversioned _ibv_query_gid_table would be no rdma-core's, and
    // its entry layout could not be trusted.
    api.query_gid_table = reinterpret_cast<fn::query_gid_table>(  // NOLINT: dlsym's documented use
        lib.versioned_symbol("_ibv_query_gid_table", kGidTableVersionNode));
    const std::pair<const char*, bool> required[] = {
        {"ibv_get_device_list", api.get_device_list != nullptr},
        {"ibv_free_device_list", api.free_device_list != nullptr},
        {"ibv_get_device_name", api.get_device_name != nullptr},
        {"ibv_open_device", api.open_device != nullptr},
        {"ibv_close_device", api.close_device != nullptr},
        {"ibv_query_device", api.query_device != nullptr},
        {"ibv_query_port", api.query_port != nullptr},
    };
    for (const auto& [name, present] : required) {
        if (!present)
            return make_gap(GapReason::error, std::string("libibverbs does not export ") + name);
    }
    return api;
}

fn::query_device_ex query_device_ex_op(Context* context) {
    if (context == nullptr || context->abi_compat != kAbiIsExtended) return nullptr;
    auto* words = reinterpret_cast<void**>(context);           // NOLINT: verbs.h container_of
    const auto sz = reinterpret_cast<std::size_t>(words[-1]);  // NOLINT
    // verbs_get_ctx_op: sz must cover everything from the op to the end of the struct.
    if (sz < kQueryDeviceExWordsBefore * sizeof(void*) + sizeof(Context)) return nullptr;
    return reinterpret_cast<fn::query_device_ex>(  // NOLINT
        words[-static_cast<std::ptrdiff_t>(kQueryDeviceExWordsBefore)]);
}

const std::vector<FlagName>& device_cap_flag_names() {
    static const std::vector<FlagName> kNames = {
        {1ULL << 0, "resize_max_wr"},
        {1ULL << 1, "bad_pkey_cntr"},
        {1ULL << 2, "bad_qkey_cntr"},
        {1ULL << 3, "raw_multi"},
        {1ULL << 4, "auto_path_mig"},
        {1ULL << 5, "change_phy_port"},
        {1ULL << 6, "ud_av_port_enforce"},
        {1ULL << 7, "curr_qp_state_mod"},
        {1ULL << 8, "shutdown_port"},
        {1ULL << 9, "init_type"},
        {1ULL << 10, "port_active_event"},
        {1ULL << 11, "sys_image_guid"},
        {1ULL << 12, "rc_rnr_nak_gen"},
        {1ULL << 13, "srq_resize"},
        {1ULL << 14, "n_notify_cq"},
        {1ULL << 17, "mem_window"},
        {1ULL << 18, "ud_ip_csum"},
        {1ULL << 20, "xrc"},
        {1ULL << 21, "mem_mgt_extensions"},
        {1ULL << 23, "mem_window_type_2a"},
        {1ULL << 24, "mem_window_type_2b"},
        {1ULL << 25, "rc_ip_csum"},
        {1ULL << 26, "raw_ip_csum"},
        {1ULL << 29, "managed_flow_steering"},
        // Beyond the 32-bit enum, only in device_cap_flags_ex (verbs.h #defines).
        {1ULL << 34, "raw_scatter_fcs"},
        {1ULL << 36, "pci_write_end_padding"},
    };
    return kNames;
}

const std::vector<FlagName>& odp_general_cap_names() {
    static const std::vector<FlagName> kNames = {{1ULL << 0, "support"},
                                                 {1ULL << 1, "support_implicit"}};
    return kNames;
}

const std::vector<FlagName>& odp_transport_cap_names() {
    static const std::vector<FlagName> kNames = {{1ULL << 0, "send"},   {1ULL << 1, "recv"},
                                                 {1ULL << 2, "write"},  {1ULL << 3, "read"},
                                                 {1ULL << 4, "atomic"}, {1ULL << 5, "srq_recv"}};
    return kNames;
}

DecodedFlags decode_flags(std::uint64_t value, const std::vector<FlagName>& table) {
    DecodedFlags out;
    std::uint64_t known = 0;
    for (const auto& flag : table) {
        known |= flag.bit;
        if ((value & flag.bit) != 0) out.names.emplace_back(flag.name);
    }
    out.unknown_mask = value & ~known;
    return out;
}

std::string_view port_state_name(int state) {
    switch (state) {
        case 0:
            return "NOP";
        case 1:
            return "DOWN";
        case 2:
            return "INIT";
        case 3:
            return "ARMED";
        case 4:
            return "ACTIVE";
        case 5:
            return "ACTIVE_DEFER";
        default:
            return "";
    }
}

std::uint32_t mtu_bytes(int mtu) {
    if (mtu < 1 || mtu > 5) return 0;
    return 128U << static_cast<unsigned>(mtu);
}

std::string_view link_layer_name(std::uint8_t link_layer) {
    switch (link_layer) {
        case 0:
            return "Unspecified";
        case 1:
            return "InfiniBand";
        case 2:
            return "Ethernet";
        default:
            return "";
    }
}

std::string_view width_name(std::uint8_t width) {
    switch (width) {
        case 1:
            return "1X";
        case 2:
            return "4X";
        case 4:
            return "8X";
        case 8:
            return "12X";
        case 16:
            return "2X";
        default:
            return "";
    }
}

std::string_view speed_name(std::uint8_t speed) {
    switch (speed) {
        case 1:
            return "SDR";
        case 2:
            return "DDR";
        case 4:
            return "QDR";
        case 8:
            return "FDR10";
        case 16:
            return "FDR";
        case 32:
            return "EDR";
        case 64:
            return "HDR";
        case 128:
            return "NDR";
        default:
            return "";
    }
}

std::string_view phys_state_name(std::uint8_t phys_state) {
    switch (phys_state) {
        case 1:
            return "SLEEP";
        case 2:
            return "POLLING";
        case 3:
            return "DISABLED";
        case 4:
            return "PORT_CONFIGURATION_TRAINING";
        case 5:
            return "LINK_UP";
        case 6:
            return "LINK_ERROR_RECOVERY";
        case 7:
            return "PHY_TEST";
        default:
            return "";
    }
}

std::string_view atomic_cap_name(int cap) {
    switch (cap) {
        case 0:
            return "none";
        case 1:
            return "hca";
        case 2:
            return "glob";
        default:
            return "";
    }
}

std::string_view gid_type_name(std::uint32_t gid_type) {
    switch (gid_type) {
        case 0:
        case 1:
            return "IB/RoCE v1";
        case 2:
            return "RoCE v2";
        default:
            return "";
    }
}

std::string format_guid(std::uint64_t big_endian_guid) {
    const auto* b = reinterpret_cast<const unsigned char*>(&big_endian_guid);  // NOLINT
    char text[24];
    std::snprintf(text, sizeof text, "%02x%02x:%02x%02x:%02x%02x:%02x%02x", b[0], b[1],
                  b[2],  // NOLINT
                  b[3], b[4], b[5], b[6], b[7]);
    return text;
}

std::string format_gid(const Gid& gid) {
    std::string out;
    char group[8];
    for (int i = 0; i < 16; i += 2) {
        std::snprintf(group, sizeof group, "%02x%02x", gid.raw[i], gid.raw[i + 1]);  // NOLINT
        if (i > 0) out += ':';
        out += group;
    }
    return out;
}

}  // namespace rdmi::ibv
