// A port's GID table: read from sysfs's file per entry, or taken from another source's answer
// (libibverbs' ibv_query_gid_table on a live run), with the port's netdevs drawn from it.
#pragma once

#include <vector>

#include "core/check.hpp"
#include "os/fs.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi::sysfs {

/// Whether a scan reads each port's GID table or leaves it pending.
enum class GidTables { read, defer };

/// One port's GID table as another source answered it: its non-zero entries by index (each
/// type sourced), and where the table came from.
struct PortGidTable {
    std::vector<PortGid> entries;
    Provenance source;
};

/// Fills a port whose GID table is pending: from `table` when given, else from gids/<i>,
/// gid_attrs/types/<i> and gid_attrs/ndevs/<i> as a scan reads them; then the port's netdevs
/// (the netdevs the table names, else the function's). Clears pending_gids; a port without
/// one is left as it is.
void finish_gid_table(const Fs& fs, RdmaPort& port, const PortGidTable* table);

}  // namespace rdmi::sysfs
