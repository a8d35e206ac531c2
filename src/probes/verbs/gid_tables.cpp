// Live GID tables from the verbs worker's answer, sysfs's files where it has none.
#include "probes/verbs/gid_tables.hpp"

#include "sysfs/ib_attrs.hpp"

namespace rdmi {

std::optional<sysfs::PortGidTable> verbs_gid_table(const VerbsFacts& verbs,
                                                   std::string_view device_name,
                                                   std::uint32_t port_number,
                                                   const Provenance& source) {
    for (const auto& device : verbs.devices) {
        if (device.name != device_name || device.gap) continue;
        for (const auto& port : device.ports) {
            if (port.port_num != port_number) continue;
            if (port.gap || port.gid_query != kGidTableQuery) return std::nullopt;
            sysfs::PortGidTable table;
            table.source = source;
            for (const auto& entry : port.gids) {
                auto gid = sysfs::parse_gid(entry.gid);
                if (!gid) return std::nullopt;
                sysfs::PortGid kept;
                kept.index = entry.index;
                kept.gid = *gid;
                kept.type = entry.type.empty()
                                ? Sourced<std::string>::missing(
                                      Gap{GapReason::not_found,
                                          device.name + " port " + std::to_string(port_number) +
                                              " GID " + std::to_string(entry.index) +
                                              ": ibv_query_gid_table gave no type"},
                                      source)
                                : Sourced<std::string>::of(entry.type, source);
                if (!entry.ndev.empty()) kept.ndev = entry.ndev;
                table.entries.push_back(std::move(kept));
            }
            return table;
        }
    }
    return std::nullopt;
}

void finish_gid_tables(const ProbeContext& ctx, sysfs::DeviceInventory& inventory,
                       const VerbsFacts* verbs) {
    for (auto& device : inventory.rdma_devices) {
        Provenance source{ctx.answers.kind("api"), ""};
        if (verbs != nullptr && verbs->library.ok()) {
            source.ref =
                std::string(kGidTableQuery) + "(" + device.name + ") via " + *verbs->library.value;
        }
        for (auto& port : device.ports) {
            if (!port.pending_gids) continue;
            std::optional<sysfs::PortGidTable> table;
            if (verbs != nullptr && !source.ref.empty())
                table = verbs_gid_table(*verbs, device.name, port.number, source);
            sysfs::finish_gid_table(ctx.fs, port, table ? &*table : nullptr);
        }
    }
}

}  // namespace rdmi
