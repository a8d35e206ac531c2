// The GID tables of a live run: the ports a live sysfs scan left pending are filled from the
// verbs worker's ibv_query_gid_table answers (one call per device instead of 255 files per
// port), and from sysfs where there is no such answer.
#pragma once

#include "context/context.hpp"
#include "probes/verbs/verbs.hpp"
#include "sysfs/gid_table.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi {

/// The table libibverbs answered for `device_name` port `port_number`, with `source` as its
/// provenance; nullopt when the answer has none (no such device or port, a gap, an answer from
/// ibv_query_gid or recorded before the table was asked for, an entry that does not parse).
/// Pure.
std::optional<sysfs::PortGidTable> verbs_gid_table(const VerbsFacts& verbs,
                                                   std::string_view device_name,
                                                   std::uint32_t port_number,
                                                   const Provenance& source);

/// Fills every pending port of `inventory`: from verbs_gid_table() when `verbs` (may be null:
/// not collected) holds one, provenance kind "api" ("captured" when replayed) and ref
/// "ibv_query_gid_table(<device>) via <libibverbs>", else from sysfs through ctx.fs. Ports
/// already filled are left as they are, so every row that reads the tables may call it.
void finish_gid_tables(const ProbeContext& ctx, sysfs::DeviceInventory& inventory,
                       const VerbsFacts* verbs);

}  // namespace rdmi
