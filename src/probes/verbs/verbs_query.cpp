// What each isolated child runs: list the devices, or open one and query everything about it.
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "api/ibverbs_api.hpp"
#include "core/exhaustion.hpp"
#include "loader/dynamic_library.hpp"
#include "probes/verbs/verbs.hpp"
#include "probes/verbs/verbs_gids.hpp"
#include "process/containment.hpp"

namespace rdmi {
namespace {

struct Loaded {
    DynamicLibrary lib;
    ibv::Api api;
};

Loaded load(const std::string& library) {
    auto lib = DynamicLibrary::open(library);
    if (!lib) throw std::runtime_error(lib.gap().message);
    auto api = ibv::bind(*lib);
    if (!api) throw std::runtime_error(library + ": " + api.gap().message);
    return Loaded{std::move(lib).value(), *api};
}

VerbsFlags flags(std::uint64_t value, const std::vector<ibv::FlagName>& table) {
    auto decoded = ibv::decode_flags(value, table);
    return VerbsFlags{value, std::move(decoded.names), decoded.unknown_mask};
}

std::uint64_t non_negative(int value) {
    return value < 0 ? 0 : static_cast<std::uint64_t>(value);
}

void fill_attr(VerbsDevice& device, const ibv::DeviceAttr& attr) {
    device.fw_ver = std::string(attr.fw_ver, strnlen(attr.fw_ver, sizeof attr.fw_ver));
    device.sys_image_guid = ibv::format_guid(attr.sys_image_guid);
    device.vendor_id = attr.vendor_id;
    device.vendor_part_id = attr.vendor_part_id;
    device.hw_ver = attr.hw_ver;
    device.phys_port_cnt = attr.phys_port_cnt;
    device.limits = {
        {"max_mr_size", attr.max_mr_size},
        {"page_size_cap", attr.page_size_cap},
        {"max_qp", non_negative(attr.max_qp)},
        {"max_qp_wr", non_negative(attr.max_qp_wr)},
        {"max_sge", non_negative(attr.max_sge)},
        {"max_sge_rd", non_negative(attr.max_sge_rd)},
        {"max_cq", non_negative(attr.max_cq)},
        {"max_cqe", non_negative(attr.max_cqe)},
        {"max_mr", non_negative(attr.max_mr)},
        {"max_pd", non_negative(attr.max_pd)},
        {"max_qp_rd_atom", non_negative(attr.max_qp_rd_atom)},
        {"max_res_rd_atom", non_negative(attr.max_res_rd_atom)},
        {"max_qp_init_rd_atom", non_negative(attr.max_qp_init_rd_atom)},
        {"max_mw", non_negative(attr.max_mw)},
        {"max_mcast_grp", non_negative(attr.max_mcast_grp)},
        {"max_mcast_qp_attach", non_negative(attr.max_mcast_qp_attach)},
        {"max_total_mcast_qp_attach", non_negative(attr.max_total_mcast_qp_attach)},
        {"max_ah", non_negative(attr.max_ah)},
        {"max_srq", non_negative(attr.max_srq)},
        {"max_srq_wr", non_negative(attr.max_srq_wr)},
        {"max_srq_sge", non_negative(attr.max_srq_sge)},
        {"max_pkeys", attr.max_pkeys},
        {"local_ca_ack_delay", attr.local_ca_ack_delay},
    };
    device.atomic_cap = std::string(ibv::atomic_cap_name(attr.atomic_cap));
    if (device.atomic_cap.empty())
        device.atomic_cap = "unknown(" + std::to_string(attr.atomic_cap) + ")";
}

VerbsPort query_port(const ibv::Api& api, ibv::Context* context, std::uint32_t number) {
    VerbsPort port;
    port.port_num = number;
    ibv::PortAttr attr{};
    // What verbs.h's ___ibv_query_port does before calling ibv_query_port@IBVERBS_1.1, for
    // libraries that predate link_layer.
    attr.link_layer = 0;
    const int rc = api.query_port(context, static_cast<std::uint8_t>(number), &attr);
    if (rc != 0) {
        port.gap = Gap{GapReason::error, "ibv_query_port(" + std::to_string(number) +
                                             ") failed: " + std::strerror(rc)};  // NOLINT
        return port;
    }
    port.state = std::string(ibv::port_state_name(attr.state));
    if (port.state.empty()) port.state = "unknown(" + std::to_string(attr.state) + ")";
    port.phys_state = std::string(ibv::phys_state_name(attr.phys_state));
    port.max_mtu = ibv::mtu_bytes(attr.max_mtu);
    port.active_mtu = ibv::mtu_bytes(attr.active_mtu);
    port.link_layer = std::string(ibv::link_layer_name(attr.link_layer));
    port.active_width = std::string(ibv::width_name(attr.active_width));
    port.active_speed = std::string(ibv::speed_name(attr.active_speed));
    port.lid = attr.lid;
    port.sm_lid = attr.sm_lid;
    port.gid_tbl_len = attr.gid_tbl_len;
    port.port_cap_flags = attr.port_cap_flags;
    return port;
}

}  // namespace

std::vector<VerbsDevice> list_verbs_devices(const std::string& library) {
    auto loaded = load(library);
    int count = 0;
    ibv::Device** list = loaded.api.get_device_list(&count);
    // rdma-core answers ENOSYS when /sys/class/infiniband_verbs is absent: no verbs device.
    if (list == nullptr && errno == ENOSYS) return {};
    if (list == nullptr) {
        throw_if_exhausted("ibv_get_device_list", errno);
        throw std::runtime_error(std::string("ibv_get_device_list failed: ") +
                                 std::strerror(errno));  // NOLINT
    }
    std::vector<VerbsDevice> out;
    for (int i = 0; i < count && list[i] != nullptr; ++i) {
        VerbsDevice device;
        const char* name = loaded.api.get_device_name(list[i]);
        device.name = name != nullptr ? name : "";
        if (loaded.api.get_device_guid != nullptr)
            device.node_guid = ibv::format_guid(loaded.api.get_device_guid(list[i]));
        out.push_back(std::move(device));
    }
    loaded.api.free_device_list(list);
    return out;
}

VerbsDevice query_verbs_device(const std::string& library, const std::string& name) {
    auto loaded = load(library);
    const auto& api = loaded.api;
    int count = 0;
    ibv::Device** list = api.get_device_list(&count);
    if (list == nullptr) {
        throw_if_exhausted("ibv_get_device_list", errno);
        throw std::runtime_error(std::string("ibv_get_device_list failed: ") +
                                 std::strerror(errno));  // NOLINT
    }
    VerbsDevice device;
    device.name = name;
    ibv::Device* found = nullptr;
    for (int i = 0; i < count && list[i] != nullptr; ++i) {
        const char* n = api.get_device_name(list[i]);
        if (n != nullptr && name == n) found = list[i];
    }
    if (found == nullptr) {
        api.free_device_list(list);
        device.gap = Gap{GapReason::not_found, name + ": no longer in ibv_get_device_list"};
        return device;
    }
    if (api.get_device_guid != nullptr)
        device.node_guid = ibv::format_guid(api.get_device_guid(found));
    ibv::Context* context = api.open_device(found);
    if (context == nullptr) {
        const int err = errno;
        api.free_device_list(list);
        throw_if_exhausted("ibv_open_device(" + name + ")", err);
        const bool refused = err == EACCES || err == EPERM;
        std::string message =
            "ibv_open_device(" + name + ") failed: " + std::strerror(err);  // NOLINT
        // This runs in the contained worker child: a refusal may be the containment's.
        if (const std::string note = containment_refusal_note(); refused && !note.empty())
            message += " (" + note + ")";
        device.gap = Gap{refused ? GapReason::permission_denied : GapReason::error, message};
        return device;
    }
    ibv::DeviceAttrEx ex{};
    int rc = -1;
    if (auto op = ibv::query_device_ex_op(context)) {
        rc = op(context, nullptr, &ex, sizeof ex);
        if (rc == 0) {
            device.query = "ibv_query_device_ex";
            fill_attr(device, ex.orig_attr);
            // device_cap_flags_ex carries the 32-bit word in its low half plus the 64-bit bits.
            device.device_cap_flags = flags(ex.device_cap_flags_ex | ex.orig_attr.device_cap_flags,
                                            ibv::device_cap_flag_names());
            device.odp_caps =
                VerbsOdpCaps{flags(ex.odp_caps.general_caps, ibv::odp_general_cap_names()),
                             flags(ex.odp_caps.rc_odp_caps, ibv::odp_transport_cap_names()),
                             flags(ex.odp_caps.uc_odp_caps, ibv::odp_transport_cap_names()),
                             flags(ex.odp_caps.ud_odp_caps, ibv::odp_transport_cap_names())};
        }
    }
    if (rc != 0) {
        // verbs.h's inline ibv_query_device_ex falls back the same way (EOPNOTSUPP/ENOSYS or no
        // op).
        ibv::DeviceAttr attr{};
        rc = api.query_device(context, &attr);
        if (rc != 0) {
            api.close_device(context);
            api.free_device_list(list);
            device.gap = Gap{GapReason::error, "ibv_query_device(" + name +
                                                   ") failed: " + std::strerror(rc)};  // NOLINT
            return device;
        }
        device.query = "ibv_query_device";
        fill_attr(device, attr);
        device.device_cap_flags = flags(attr.device_cap_flags, ibv::device_cap_flag_names());
    }
    for (std::uint32_t port = 1; port <= device.phys_port_cnt; ++port)
        device.ports.push_back(query_port(api, context, port));
    query_port_gids(api, context, device.ports);
    api.close_device(context);
    api.free_device_list(list);
    return device;
}

}  // namespace rdmi
