// A device's GID tables in the worker child. On real hardware a port's table has 255 entries,
// most of them unused: ibv_query_gid_table answers only the valid ones, for every port, in one
// call, with the type and netdev sysfs keeps in two more files per entry
// (docs/reference/sysfs-formats.md#gid-table).
#include "probes/verbs/verbs_gids.hpp"

#include <net/if.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

namespace rdmi {
namespace {

bool is_zero(const ibv::Gid& gid) {
    return std::all_of(std::begin(gid.raw), std::end(gid.raw),
                       [](std::uint8_t b) { return b == 0; });
}

// Interface index to name, once per index: a RoCE port's entries share one or two netdevs.
class NetdevNames {
  public:
    const std::string& name(std::uint32_t ifindex) {
        auto [it, inserted] = names_.try_emplace(ifindex);
        if (inserted && ifindex != 0) {
            char buffer[IF_NAMESIZE] = {};
            if (::if_indextoname(ifindex, buffer) != nullptr) it->second = buffer;
        }
        return it->second;
    }

  private:
    std::map<std::uint32_t, std::string> names_;
};

std::string type_of(std::uint32_t gid_type) {
    const std::string_view name = ibv::gid_type_name(gid_type);
    return name.empty() ? "unknown(" + std::to_string(gid_type) + ")" : std::string(name);
}

bool asked(const VerbsPort& port) {
    return !port.gap;
}

void fail_all(std::vector<VerbsPort>& ports, const Gap& gap) {
    for (auto& port : ports) {
        if (!asked(port)) continue;
        port.gids.clear();
        port.gap = gap;
    }
}

void gids_from_table(const ibv::Api& api, ibv::Context* context, std::vector<VerbsPort>& ports) {
    std::size_t room = 0;
    for (auto& port : ports) {
        if (!asked(port)) continue;
        port.gid_query = std::string(kGidTableQuery);
        room += static_cast<std::size_t>(std::clamp(port.gid_tbl_len, 0, kMaxGidEntriesPerPort));
    }
    if (room == 0) return;
    std::vector<ibv::GidEntry> entries(room);
    const long count = api.query_gid_table(context, entries.data(), room, 0, sizeof(ibv::GidEntry));
    if (count < 0) {
        fail_all(ports, Gap{GapReason::error,
                            "ibv_query_gid_table failed: " +
                                std::string(std::strerror(static_cast<int>(-count)))});  // NOLINT
        return;
    }
    if (static_cast<std::size_t>(count) > room) {
        fail_all(ports,
                 Gap{GapReason::malformed, "ibv_query_gid_table answered " + std::to_string(count) +
                                               " entries for room for " + std::to_string(room)});
        return;
    }
    NetdevNames netdevs;
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
        const ibv::GidEntry& entry = entries[i];
        if (entry.port_num == 0 || entry.port_num > ports.size()) {
            fail_all(ports, Gap{GapReason::malformed,
                                "ibv_query_gid_table answered an entry of port " +
                                    std::to_string(entry.port_num) + ", which the device has not"});
            return;
        }
        VerbsPort& port = ports[entry.port_num - 1];
        if (!asked(port) || is_zero(entry.gid)) continue;
        port.gids.push_back({entry.gid_index, ibv::format_gid(entry.gid), type_of(entry.gid_type),
                             entry.ndev_ifindex, netdevs.name(entry.ndev_ifindex)});
    }
    for (auto& port : ports) {
        std::stable_sort(port.gids.begin(), port.gids.end(),
                         [](const VerbsGid& a, const VerbsGid& b) { return a.index < b.index; });
        // One entry per index in a table: a second one means the answer cannot be trusted.
        const auto twice = std::adjacent_find(
            port.gids.begin(), port.gids.end(),
            [](const VerbsGid& a, const VerbsGid& b) { return a.index == b.index; });
        if (twice == port.gids.end()) continue;
        fail_all(ports, Gap{GapReason::malformed, "ibv_query_gid_table answered index " +
                                                      std::to_string(twice->index) + " of port " +
                                                      std::to_string(port.port_num) + " twice"});
        return;
    }
}

void gids_by_entry(const ibv::Api& api, ibv::Context* context, VerbsPort& port) {
    if (api.query_gid == nullptr) {
        port.gap = Gap{GapReason::not_found, "libibverbs does not export ibv_query_gid"};
        return;
    }
    port.gid_query = std::string(kGidEntryQuery);
    const auto number = static_cast<std::uint8_t>(port.port_num);
    for (int i = 0; i < port.gid_tbl_len && i < kMaxGidEntriesPerPort; ++i) {
        ibv::Gid gid{};
        if (api.query_gid(context, number, i, &gid) != 0) continue;
        if (is_zero(gid)) continue;
        VerbsGid entry;
        entry.index = static_cast<std::uint32_t>(i);
        entry.gid = ibv::format_gid(gid);
        port.gids.push_back(std::move(entry));
    }
}

}  // namespace

void query_port_gids(const ibv::Api& api, ibv::Context* context, std::vector<VerbsPort>& ports) {
    if (api.query_gid_table != nullptr) {
        gids_from_table(api, context, ports);
        return;
    }
    for (auto& port : ports) {
        if (asked(port)) gids_by_entry(api, context, port);
    }
}

}  // namespace rdmi
