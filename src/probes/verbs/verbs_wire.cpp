// The child-to-parent wire format of the verbs layer: JSON text, decoded defensively.
#include <nlohmann/json.hpp>

#include "context/wire_json.hpp"
#include "probes/verbs/verbs.hpp"

namespace rdmi {
namespace {

using Json = nlohmann::json;

Json flags_json(const VerbsFlags& f) {
    return Json{{"value", f.value}, {"names", f.names}, {"unknown", f.unknown_mask}};
}

VerbsFlags flags_from(const Json& j) {
    return VerbsFlags{j.at("value").get<std::uint64_t>(),
                      j.at("names").get<std::vector<std::string>>(),
                      j.at("unknown").get<std::uint64_t>()};
}

Json port_json(const VerbsPort& p) {
    Json gids = Json::array();
    // [index, gid] from ibv_query_gid; the table's entries add [type, ifindex, netdev].
    for (const auto& g : p.gids) {
        if (p.gid_query == kGidTableQuery)
            gids.push_back({g.index, g.gid, g.type, g.ndev_ifindex, g.ndev});
        else
            gids.push_back({g.index, g.gid});
    }
    return Json{{"port_num", p.port_num},
                {"state", p.state},
                {"phys_state", p.phys_state},
                {"max_mtu", p.max_mtu},
                {"active_mtu", p.active_mtu},
                {"link_layer", p.link_layer},
                {"width", p.active_width},
                {"speed", p.active_speed},
                {"lid", p.lid},
                {"sm_lid", p.sm_lid},
                {"gid_tbl_len", p.gid_tbl_len},
                {"port_cap_flags", p.port_cap_flags},
                {"gids", gids},
                {"gid_query", p.gid_query},
                {"gap", gap_to_wire(p.gap)}};
}

VerbsPort port_from(const Json& j) {
    VerbsPort p;
    p.port_num = j.at("port_num").get<std::uint32_t>();
    p.state = j.at("state").get<std::string>();
    p.phys_state = j.at("phys_state").get<std::string>();
    p.max_mtu = j.at("max_mtu").get<std::uint32_t>();
    p.active_mtu = j.at("active_mtu").get<std::uint32_t>();
    p.link_layer = j.at("link_layer").get<std::string>();
    p.active_width = j.at("width").get<std::string>();
    p.active_speed = j.at("speed").get<std::string>();
    p.lid = j.at("lid").get<std::uint32_t>();
    p.sm_lid = j.at("sm_lid").get<std::uint32_t>();
    p.gid_tbl_len = j.at("gid_tbl_len").get<std::int32_t>();
    p.port_cap_flags = j.at("port_cap_flags").get<std::uint32_t>();
    // Absent from answers recorded before the GID table was asked for: the parent then reads
    // the table from sysfs.
    p.gid_query = j.value("gid_query", std::string());
    for (const auto& g : j.at("gids")) {
        VerbsGid gid;
        gid.index = g.at(0).get<std::uint32_t>();
        gid.gid = g.at(1).get<std::string>();
        if (g.size() > 2) {
            gid.type = g.at(2).get<std::string>();
            gid.ndev_ifindex = g.at(3).get<std::uint32_t>();
            gid.ndev = g.at(4).get<std::string>();
        }
        p.gids.push_back(std::move(gid));
    }
    p.gap = gap_from_wire(j.at("gap"));
    return p;
}

Json device_json(const VerbsDevice& d) {
    Json limits = Json::array();
    for (const auto& [name, value] : d.limits) limits.push_back({name, value});
    Json ports = Json::array();
    for (const auto& p : d.ports) ports.push_back(port_json(p));
    Json odp = nullptr;
    if (d.odp_caps) {
        odp = Json{flags_json(d.odp_caps->general_caps), flags_json(d.odp_caps->rc_odp_caps),
                   flags_json(d.odp_caps->uc_odp_caps), flags_json(d.odp_caps->ud_odp_caps)};
    }
    return Json{{"name", d.name},
                {"node_guid", d.node_guid},
                {"gap", gap_to_wire(d.gap)},
                {"query", d.query},
                {"fw_ver", d.fw_ver},
                {"sys_image_guid", d.sys_image_guid},
                {"ids", {d.vendor_id, d.vendor_part_id, d.hw_ver, d.phys_port_cnt}},
                {"limits", limits},
                {"atomic_cap", d.atomic_cap},
                {"flags", flags_json(d.device_cap_flags)},
                {"odp", odp},
                {"ports", ports}};
}

VerbsDevice device_from(const Json& j) {
    VerbsDevice d;
    d.name = j.at("name").get<std::string>();
    d.node_guid = j.at("node_guid").get<std::string>();
    d.gap = gap_from_wire(j.at("gap"));
    d.query = j.at("query").get<std::string>();
    d.fw_ver = j.at("fw_ver").get<std::string>();
    d.sys_image_guid = j.at("sys_image_guid").get<std::string>();
    const auto& ids = j.at("ids");
    d.vendor_id = ids.at(0).get<std::uint32_t>();
    d.vendor_part_id = ids.at(1).get<std::uint32_t>();
    d.hw_ver = ids.at(2).get<std::uint32_t>();
    d.phys_port_cnt = ids.at(3).get<std::uint32_t>();
    for (const auto& l : j.at("limits"))
        d.limits.emplace_back(l.at(0).get<std::string>(), l.at(1).get<std::uint64_t>());
    d.atomic_cap = j.at("atomic_cap").get<std::string>();
    d.device_cap_flags = flags_from(j.at("flags"));
    if (const auto& odp = j.at("odp"); !odp.is_null()) {
        d.odp_caps = VerbsOdpCaps{flags_from(odp.at(0)), flags_from(odp.at(1)),
                                  flags_from(odp.at(2)), flags_from(odp.at(3))};
    }
    for (const auto& p : j.at("ports")) d.ports.push_back(port_from(p));
    return d;
}

}  // namespace

std::string encode_verbs_devices(const std::vector<VerbsDevice>& devices) {
    Json out = Json::array();
    for (const auto& d : devices) out.push_back(device_json(d));
    return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<std::vector<VerbsDevice>> decode_verbs_devices(std::string_view text) {
    return decode_wire_json<std::vector<VerbsDevice>>(
        text, "verbs child's answer", "verbs child sent an unreadable answer", [](const Json& j) {
            if (!j.is_array()) throw std::runtime_error("not an array");
            std::vector<VerbsDevice> out;
            for (const auto& d : j) out.push_back(device_from(d));
            return out;
        });
}

}  // namespace rdmi
