// The GID tables of an opened device, in the worker child: one ibv_query_gid_table call for
// every port, or ibv_query_gid per entry where libibverbs predates it.
#pragma once

#include <vector>

#include "api/ibverbs_api.hpp"
#include "probes/verbs/verbs.hpp"

namespace rdmi {

/// Most entries asked for per port: a real table has 256 at most (gid_tbl_len is an int the
/// provider fills, and a broken one must not make the child allocate without bound).
inline constexpr int kMaxGidEntriesPerPort = 4096;

/// Fills the non-zero GID entries of every port of `ports` that queried without a gap.
/// With api.query_gid_table: one call for the whole device, each entry with its type and
/// netdev; an error return, or an answer that does not fit what was asked (more entries than
/// room was given for, an entry of a port the device does not have), becomes each port's gap.
/// Without it: ibv_query_gid for each entry, addresses only.
void query_port_gids(const ibv::Api& api, ibv::Context* context, std::vector<VerbsPort>& ports);

}  // namespace rdmi
