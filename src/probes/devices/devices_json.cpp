// The devices section emitter: every sysfs field as {value, source[, gap]}; verbs and DOCA as
// what the call returned, the call itself named in the provenance.
#include "probes/devices/devices_json.hpp"

#include <cstdio>

namespace rdmi::json {
namespace {

template <typename T, typename Conv>
Json sv(const Sourced<T>& value, Conv conv) {
    Json out = object({{"value", value.value ? conv(*value.value) : Json(nullptr)},
                       {"source", provenance(value.source)}});
    if (value.gap) out["gap"] = gap(*value.gap);
    return out;
}

template <typename T>
Json sv(const Sourced<T>& value) {
    return sv(value, [](const T& v) { return Json(v); });
}

Json hex(std::uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));  // NOLINT
    return text;
}

Json gaps(const std::vector<Gap>& list) {
    Json out = Json::array();
    for (const auto& g : list) out.push_back(gap(g));
    return out;
}

Json numbered(const sysfs::NumberedName& n) {
    return object({{"number", n.number}, {"name", n.name}});
}

Json dpa(const Sourced<sysfs::DpaCapability>& value) {
    return sv(value, [](const sysfs::DpaCapability& d) {
        return object({{"support", sysfs::to_string(d.support)},
                       {"detail", d.detail.empty() ? Json(nullptr) : Json(d.detail)}});
    });
}

Json function(const sysfs::Function& f) {
    return object(
        {{"name", f.name},
         {"kind", sysfs::to_string(f.kind)},
         {"sysfs_path", f.sysfs_path},
         {"device_path", f.device_path},
         {"pci_address", f.pci_address},
         {"parent_pf", sv(f.parent_pf)},
         {"vendor", sv(f.vendor, [](std::uint32_t v) { return hex(v); })},
         {"device", sv(f.device, [](std::uint32_t v) { return hex(v); })},
         {"subsystem_vendor", sv(f.subsystem_vendor, [](std::uint32_t v) { return hex(v); })},
         {"subsystem_device", sv(f.subsystem_device, [](std::uint32_t v) { return hex(v); })},
         {"product", sv(f.product)},
         {"role",
          f.device.ok() ? Json(sysfs::to_string(sysfs::role_of(*f.device.value))) : Json(nullptr)},
         {"numa_node", sv(f.numa_node)},
         {"driver", sv(f.driver)},
         {"sriov_totalvfs", sv(f.sriov_totalvfs)},
         {"sriov_numvfs", sv(f.sriov_numvfs)},
         {"sfnum", sv(f.sfnum)},
         {"virtfns", f.virtfns},
         {"dpa", dpa(f.dpa)},
         {"netdevs", f.netdevs},
         {"rdma_devices", f.rdma_devices},
         {"gaps", gaps(f.gaps)}});
}

Json port(const sysfs::RdmaPort& p) {
    return object({{"number", p.number},
                   {"state", sv(p.state, numbered)},
                   {"phys_state", sv(p.phys_state, numbered)},
                   {"link_layer", sv(p.link_layer)},
                   {"rate", sv(p.rate,
                               [](const sysfs::LinkRate& r) {
                                   return object({{"gbps", r.gbps},
                                                  {"width", r.width},
                                                  {"speed", r.speed},
                                                  {"text", r.text}});
                               })},
                   {"lid", sv(p.lid)},
                   {"gid_count", sv(p.gid_count)},
                   {"gid_types", sv(p.gid_types)},
                   {"netdevs", sv(p.netdevs)},
                   {"gaps", gaps(p.gaps)}});
}

Json rdma_device(const sysfs::RdmaDevice& d) {
    Json ports = Json::array();
    for (const auto& p : d.ports) ports.push_back(port(p));
    return object({{"name", d.name},
                   {"sysfs_path", d.sysfs_path},
                   {"function", sv(d.function)},
                   {"fw_ver", sv(d.fw_ver)},
                   {"node_guid", sv(d.node_guid)},
                   {"sys_image_guid", sv(d.sys_image_guid)},
                   {"board_id", sv(d.board_id)},
                   {"hca_type", sv(d.hca_type)},
                   {"node_type", sv(d.node_type, numbered)},
                   {"ports", std::move(ports)},
                   {"gaps", gaps(d.gaps)}});
}

Json netdev(const sysfs::NetDev& n) {
    return object({{"name", n.name},
                   {"sysfs_path", n.sysfs_path},
                   {"function", n.function},
                   {"mtu", sv(n.mtu)},
                   {"operstate", sv(n.operstate)},
                   {"address", sv(n.address)},
                   {"phys_port_name", sv(n.phys_port_name)},
                   {"phys_switch_id", sv(n.phys_switch_id)},
                   {"port_flavour",
                    n.port_name ? Json(sysfs::to_string(n.port_name->flavour)) : Json(nullptr)},
                   {"representor", sysfs::is_representor(n)}});
}

Json module_state(const host::ModuleState& m) {
    return object(
        {{"present", sv(m.present)}, {"how", m.how.empty() ? Json(nullptr) : Json(m.how)}});
}

Json pool(const host::HugepagePool& p) {
    return object({{"nr_hugepages", sv(p.nr_hugepages)}, {"free_hugepages", sv(p.free_hugepages)}});
}

Json platform(const host::PlatformFacts& p) {
    return object(
        {{"live", p.live},
         {"architecture", sv(p.architecture)},
         {"kernel_release", sv(p.kernel_release)},
         {"mlx5_core", module_state(p.mlx5_core)},
         {"mlx5_ib", module_state(p.mlx5_ib)},
         {"mlx5_modules", sv(p.mlx5_modules)},
         {"hugepages_2m", pool(p.hugepages_2m)},
         {"hugepages_1g", pool(p.hugepages_1g)},
         {"hugetlbfs_mounts", sv(p.hugetlbfs_mounts,
                                 [](const std::vector<host::HugetlbfsMount>& mounts) {
                                     Json out = Json::array();
                                     for (const auto& m : mounts) {
                                         out.push_back(object({{"mount_point", m.mount_point},
                                                               {"page_size", m.page_size}}));
                                     }
                                     return out;
                                 })},
         {"uverbs", sv(p.uverbs,
                       [](const std::vector<host::UverbsNode>& nodes) {
                           Json out = Json::array();
                           for (const auto& n : nodes) {
                               char mode[8];
                               std::snprintf(mode, sizeof mode, "%04o",
                                             n.info.mode);  // NOLINT
                               out.push_back(object({{"path", n.path},
                                                     {"type", to_string(n.info.type)},
                                                     {"mode", mode},
                                                     {"uid", n.info.uid},
                                                     {"gid", n.info.gid},
                                                     {"accessible", sv(n.accessible)}}));
                           }
                           return out;
                       })},
         {"bfb", sv(p.bfb)},
         {"bluefield_platform_devices", sv(p.bluefield_platform_devices)}});
}

Json evidence(const std::vector<host::Evidence>& list) {
    Json out = Json::array();
    for (const auto& e : list)
        out.push_back(object({{"fact", e.fact}, {"source", provenance(e.source)}}));
    return out;
}

Json host(const host::HostClassification& h) {
    return object(
        {{"host_kind", host::to_string(h.host_kind)},
         {"host_kind_evidence", evidence(h.host_kind_evidence)},
         {"bf_mode", h.bf_mode ? Json(host::to_string(*h.bf_mode)) : Json(nullptr)},
         {"bf_mode_evidence", evidence(h.bf_mode_evidence)},
         {"bf_mode_gap", optional_gap(h.bf_mode_gap)},
         {"bf_mode_command", h.bf_mode_command.empty() ? Json(nullptr) : Json(h.bf_mode_command)}});
}

Json flags(const VerbsFlags& f) {
    return object({{"value", hex(f.value)},
                   {"names", f.names},
                   {"unknown_mask", f.unknown_mask == 0 ? Json(nullptr) : hex(f.unknown_mask)}});
}

Json pairs(const std::vector<std::pair<std::string, std::uint64_t>>& list) {
    Json out = Json::object();
    for (const auto& [name, value] : list) out[name] = value;
    return out;
}

Json verbs_device(const VerbsDevice& d) {
    Json ports = Json::array();
    for (const auto& p : d.ports) {
        Json gids = Json::array();
        for (const auto& g : p.gids) gids.push_back(object({{"index", g.index}, {"gid", g.gid}}));
        ports.push_back(object({{"port_num", p.port_num},
                                {"state", p.state},
                                {"phys_state", p.phys_state},
                                {"max_mtu", p.max_mtu},
                                {"active_mtu", p.active_mtu},
                                {"link_layer", p.link_layer},
                                {"active_width", p.active_width},
                                {"active_speed", p.active_speed},
                                {"lid", p.lid},
                                {"sm_lid", p.sm_lid},
                                {"gid_tbl_len", p.gid_tbl_len},
                                {"port_cap_flags", hex(p.port_cap_flags)},
                                {"gids", std::move(gids)},
                                {"gap", optional_gap(p.gap)}}));
    }
    Json odp = nullptr;
    if (d.odp_caps) {
        odp = object({{"general_caps", flags(d.odp_caps->general_caps)},
                      {"rc_odp_caps", flags(d.odp_caps->rc_odp_caps)},
                      {"uc_odp_caps", flags(d.odp_caps->uc_odp_caps)},
                      {"ud_odp_caps", flags(d.odp_caps->ud_odp_caps)}});
    }
    const bool queried = !d.gap;
    return object({{"name", d.name},
                   {"node_guid", d.node_guid.empty() ? Json(nullptr) : Json(d.node_guid)},
                   {"gap", optional_gap(d.gap)},
                   {"source", provenance({"api", queried ? d.query : "ibv_open_device"})},
                   {"fw_ver", queried ? Json(d.fw_ver) : Json(nullptr)},
                   {"sys_image_guid", queried ? Json(d.sys_image_guid) : Json(nullptr)},
                   {"vendor_id", queried ? hex(d.vendor_id) : Json(nullptr)},
                   {"vendor_part_id", queried ? Json(d.vendor_part_id) : Json(nullptr)},
                   {"hw_ver", queried ? Json(d.hw_ver) : Json(nullptr)},
                   {"phys_port_cnt", queried ? Json(d.phys_port_cnt) : Json(nullptr)},
                   {"limits", pairs(d.limits)},
                   {"atomic_cap", queried ? Json(d.atomic_cap) : Json(nullptr)},
                   {"device_cap_flags", queried ? flags(d.device_cap_flags) : Json(nullptr)},
                   {"odp_caps", odp},
                   {"ports", std::move(ports)}});
}

Json verbs(const VerbsFacts& v) {
    Json devices = Json::array();
    for (const auto& d : v.devices) devices.push_back(verbs_device(d));
    return object({{"library", sourced(v.library)},
                   {"gap", optional_gap(v.gap)},
                   {"devices", std::move(devices)}});
}

Json doca_device(const DocaDevice& d) {
    Json answers = Json::array();
    for (const auto& a : d.answers) {
        answers.push_back(
            {{"symbol", a.symbol},
             {"library", a.library},
             {"flag", a.flag},
             {"supported", a.supported},
             {"error", a.error.empty() ? Json(nullptr) : Json(a.error)},
             {"description", a.description.empty() ? Json(nullptr) : Json(a.description)}});
    }
    Json errors = Json::array();
    for (const auto& e : d.errors) {
        errors.push_back(
            {{"symbol", e.symbol}, {"error", e.error}, {"description", e.description}});
    }
    Json supported = Json::object();
    for (const auto& [lib, names] : d.supported) supported[lib] = names;
    Json verbs_attrs = nullptr;
    if (d.verbs) {
        verbs_attrs =
            object({{"source", provenance({"api", "doca_verbs_query_device"})},
                    {"values", pairs(d.verbs->values)},
                    {"atomic_cap",
                     d.verbs->atomic_cap.empty() ? Json(nullptr) : Json(d.verbs->atomic_cap)},
                    {"supported", d.verbs->supported},
                    {"missing", d.verbs->missing},
                    {"gap", optional_gap(d.verbs->gap)}});
    }
    auto or_null = [](const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); };
    return object({{"pci_address", or_null(d.pci_address)},
                   {"ibdev_name", or_null(d.ibdev_name)},
                   {"iface_name", or_null(d.iface_name)},
                   {"pci_func_type", or_null(d.pci_func_type)},
                   {"dpa", d.dpa ? Json(*d.dpa) : Json(nullptr)},
                   {"supported", std::move(supported)},
                   {"answers", std::move(answers)},
                   {"rdma_caps", pairs(d.rdma_values)},
                   {"errors", std::move(errors)},
                   {"verbs", std::move(verbs_attrs)}});
}

Json doca(const DocaCapsFacts& d) {
    Json devices = Json::array();
    for (const auto& device : d.devices) devices.push_back(doca_device(device));
    return object({{"libraries", d.libraries},
                   {"library_gaps", gaps(d.library_gaps)},
                   {"predicates", d.predicates},
                   {"error_names", d.error_names.empty() ? Json(nullptr) : Json(d.error_names)},
                   {"gap", optional_gap(d.gap)},
                   {"devices", std::move(devices)}});
}

Json summary_row(const DeviceSummary& s) {
    auto or_null = [](const std::string& v) { return v.empty() ? Json(nullptr) : Json(v); };
    return object({{"function", s.function},
                   {"kind", s.kind},
                   {"product", or_null(s.product)},
                   {"rdma_devices", s.rdma_devices},
                   {"netdevs", s.netdevs},
                   {"port_state", or_null(s.port_state)},
                   {"port_active", s.port_active},
                   {"dpa", dpa(s.dpa)},
                   {"verbs_status", or_null(s.verbs_status)}});
}

}  // namespace

Json devices(const DevicesFacts& facts) {
    Json summary = Json::array();
    for (const auto& s : facts.summary) summary.push_back(summary_row(s));
    Json functions = Json::array();
    for (const auto& f : facts.inventory.functions) functions.push_back(function(f));
    Json rdma = Json::array();
    for (const auto& d : facts.inventory.rdma_devices) rdma.push_back(rdma_device(d));
    Json nets = Json::array();
    for (const auto& n : facts.inventory.netdevs) nets.push_back(netdev(n));
    return object({{"summary", std::move(summary)},
                   {"functions", std::move(functions)},
                   {"rdma_devices", std::move(rdma)},
                   {"netdevs", std::move(nets)},
                   {"gaps", gaps(facts.inventory.gaps)},
                   {"platform", platform(facts.platform)},
                   {"host", host(facts.host)},
                   {"verbs", verbs(facts.verbs)},
                   {"doca", doca(facts.doca)}});
}

}  // namespace rdmi::json
