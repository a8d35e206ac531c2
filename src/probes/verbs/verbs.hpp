// The verbs layer of the devices probe: what libibverbs says about each RDMA device (limits,
// capability flags, ODP, ports, GIDs), every device open isolated in a child with a deadline.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"

namespace rdmi {

/// A decoded flags word: the value, the names of its known bits, and the unknown rest.
struct VerbsFlags {
    std::uint64_t value = 0;
    std::vector<std::string> names;
    std::uint64_t unknown_mask = 0;
};

/// struct ibv_odp_caps, decoded.
struct VerbsOdpCaps {
    VerbsFlags general_caps;
    VerbsFlags rc_odp_caps;
    VerbsFlags uc_odp_caps;
    VerbsFlags ud_odp_caps;
};

/// One non-zero GID table entry (ibv_query_gid_table, or ibv_query_gid where it is absent).
struct VerbsGid {
    std::uint32_t index = 0;
    std::string gid;  ///< eight groups of four hex digits, as sysfs prints it
    /// From ibv_query_gid_table only: the type in sysfs's spelling ("IB/RoCE v1", "RoCE v2";
    /// "unknown(N)" for a value verbs.h does not name), the netdev's interface index (0: none)
    /// and its name (empty when there is none or it could not be named).
    std::string type;
    std::uint32_t ndev_ifindex = 0;
    std::string ndev;
};

/// How a port's GID entries were asked for.
inline constexpr std::string_view kGidTableQuery = "ibv_query_gid_table";
inline constexpr std::string_view kGidEntryQuery = "ibv_query_gid";

/// One port as ibv_query_port describes it.
struct VerbsPort {
    std::uint32_t port_num = 0;
    std::string state;             ///< "ACTIVE" (enum ibv_port_state)
    std::string phys_state;        ///< "LINK_UP"
    std::uint32_t max_mtu = 0;     ///< bytes
    std::uint32_t active_mtu = 0;  ///< bytes
    std::string link_layer;        ///< "InfiniBand", "Ethernet", "Unspecified"
    std::string active_width;      ///< "4X"
    std::string active_speed;      ///< "NDR"
    std::uint32_t lid = 0;
    std::uint32_t sm_lid = 0;
    std::int32_t gid_tbl_len = 0;
    std::uint32_t port_cap_flags = 0;
    std::vector<VerbsGid> gids;  ///< non-zero entries
    /// kGidTableQuery (the entries carry their type and netdev), kGidEntryQuery (addresses
    /// only), or empty when the table was not asked for (the port did not query, or an answer
    /// recorded before the table was).
    std::string gid_query;
    std::optional<Gap> gap;  ///< the port (or its GID table) could not be queried
};

/// One device from ibv_get_device_list and what opening it gave.
struct VerbsDevice {
    std::string name;       ///< "mlx5_0"
    std::string node_guid;  ///< from ibv_get_device_guid, "%04x:%04x:%04x:%04x"
    /// Why the device could not be opened or queried (timeout, error); the fields below are
    /// then empty.
    std::optional<Gap> gap;
    std::string query;  ///< "ibv_query_device_ex" or "ibv_query_device" (the fallback)
    std::string fw_ver;
    std::string sys_image_guid;
    std::uint32_t vendor_id = 0;
    std::uint32_t vendor_part_id = 0;
    std::uint32_t hw_ver = 0;
    std::uint32_t phys_port_cnt = 0;
    /// max_qp, max_qp_wr, max_sge, max_sge_rd, max_cq, max_cqe, max_mr, max_mr_size, max_pd,
    /// max_qp_rd_atom, max_qp_init_rd_atom, max_res_rd_atom, max_srq, max_srq_wr, max_srq_sge,
    /// max_ah, max_mw, max_pkeys, max_mcast_grp, page_size_cap, ... in verbs.h order.
    std::vector<std::pair<std::string, std::uint64_t>> limits;
    std::string atomic_cap;                ///< "none", "hca", "glob"
    VerbsFlags device_cap_flags;           ///< device_cap_flags_ex when queried with _ex
    std::optional<VerbsOdpCaps> odp_caps;  ///< only from ibv_query_device_ex
    std::vector<VerbsPort> ports;
};

/// Everything the verbs layer learned.
struct VerbsFacts {
    /// The libibverbs.so.1 that was (or would have been) loaded, and how it was found; the gap
    /// says why it was not loaded (not_applicable under --root, not_installed, untrusted, ...).
    Sourced<std::string> library;
    /// Why there is no device list (library absent, listing failed or timed out).
    std::optional<Gap> gap;
    std::vector<VerbsDevice> devices;  ///< in ibv_get_device_list order
};

/// Where the dynamic loader would find `soname`: LD_LIBRARY_PATH (from `env`), then the
/// directories of /etc/ld.so.conf (and its `include`s), then the default directories
/// (/lib/<triplet>, /usr/lib/<triplet>, /lib64, /usr/lib64, /lib, /usr/lib). Reads through
/// `fs`. The provenance ref says which of these it was. We search ourselves, instead of
/// dlopen-ing the soname and asking dlinfo afterwards, because by then the library's
/// constructors would already have run; the path found is trust-checked and then loaded by
/// its absolute path. (ld.so.cache is built from the same directories, so the order agrees
/// except for hwcaps subdirectories, which we do not model.)
Sourced<std::string> locate_soname(const Fs& fs, const Env& env, const std::string& soname);

/// The first half of the verbs layer, begun before the static probes run: libibverbs.so.1
/// located, its trust gate passed, and the device listing sent to the run's worker child, so
/// that the child's load of libibverbs and its scan of the providers overlap the probe's own
/// reads of /sys and the install.
struct VerbsStart {
    Sourced<std::string> library;  ///< as VerbsFacts::library
    /// The host path that passed the trust gate; empty when there is none (library.gap says
    /// why: not located, not loadable, or not the live root).
    std::string path;
    /// The listing in flight; nullopt when the library was not loadable (library.gap says
    /// why) or the answers are replayed from a bundle (nothing is asked of this machine).
    std::optional<IsolatedWorker::Sent> listing;
};

/// Locates and trust-checks libibverbs.so.1 and, on the live root, sends the device listing to
/// the worker without waiting for it.
VerbsStart start_verbs(const ProbeContext& ctx);

/// Runs the verbs layer from `started`: takes the device list from the run's worker child,
/// then opens and queries each device in its own call to it bounded by ctx.call_deadline(), so
/// a hung open marks only that device `timeout` (the next device gets a new child). Live only.
VerbsFacts probe_verbs(const ProbeContext& ctx, VerbsStart started);
/// Both halves at once.
VerbsFacts probe_verbs(const ProbeContext& ctx);

/// Queries one opened-by-name device in the current process (what each child runs):
/// ibv_open_device, ibv_query_device_ex (or ibv_query_device), ibv_query_port for each port,
/// then one ibv_query_gid_table for every port's GID table (ibv_query_gid for each entry when
/// libibverbs predates it). `library` is an absolute path.
VerbsDevice query_verbs_device(const std::string& library, const std::string& name);

/// The device list (names and node GUIDs) in the current process.
std::vector<VerbsDevice> list_verbs_devices(const std::string& library);

/// The wire format between the isolated child and the parent (JSON text).
std::string encode_verbs_devices(const std::vector<VerbsDevice>& devices);
/// Parses what encode_verbs_devices produced; a malformed Gap for anything else.
Result<std::vector<VerbsDevice>> decode_verbs_devices(std::string_view text);

}  // namespace rdmi
