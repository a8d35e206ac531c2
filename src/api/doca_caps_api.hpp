// DOCA capability entry points: which exported names are devinfo predicates (and the flag name
// each answers), the getters with out-parameters we call by name, and a reader of the exported
// function names of a loaded library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/doca_types.hpp"

namespace rdmi::doca {

/// An exported `doca_error_t f(const struct doca_devinfo *)` capability predicate.
struct CapSymbol {
    std::string symbol;   ///< "doca_rdma_cap_task_write_is_supported"
    std::string library;  ///< the <lib> part: "rdma", "sync_event", "dpa"
    std::string flag;     ///< the capability-snapshot flag: "task_write", "dpa", ...
};

/// Classifies one exported name. Accepted (DOCA documents each as taking only the devinfo):
/// `doca_<lib>_cap_task_<task>_is_supported` (flag `task_<task>`), `doca_dpa_cap_is_supported`
/// (flag `dpa`), and `doca_sync_event_cap_*_supported` (flag: the middle part). Everything
/// else is nullopt — notably `doca_devinfo_*cap*` (out-pointer second argument) and
/// `doca_rdma_cap_transport_type_is_supported` (a second argument): calling those with one
/// argument would be undefined behaviour.
std::optional<CapSymbol> classify_cap_symbol(std::string_view name);

/// The predicates among `names`, sorted by symbol. This is the seam where the list of names
/// comes from: today the loaded library's dynamic symbol table (exported_function_names), or
/// the ELF reader once it is available.
std::vector<CapSymbol> cap_symbols(const std::vector<std::string>& names);

/// Defined global/weak function symbols of the loaded object whose link-map name is `path`,
/// read from its in-memory .dynsym (PT_DYNAMIC: DT_SYMTAB, DT_STRTAB, DT_GNU_HASH or DT_HASH).
/// Empty when the object is not loaded or has no symbol table.
std::vector<std::string> exported_function_names(const std::string& path);

/// The doca_rdma_cap_get_* getters with one uint32_t out-parameter, as (symbol, value name)
/// pairs (docs/reference/device-queries.md#rdma-capabilities).
struct U32Getter {
    const char* symbol;
    const char* name;
};
/// doca_rdma_cap_get_max_recv_queue_size, ..._max_send_queue_size, ..._max_send_buf_list_len,
/// ..._max_message_size, ..._gid_table_size.
const std::vector<U32Getter>& rdma_u32_getters();

namespace fn {
using u32_getter = doca_error_t (*)(const doca_devinfo* devinfo, std::uint32_t* value);
using verbs_query_device = doca_error_t (*)(doca_verbs_context* context,
                                            doca_verbs_device_attr** attr);
using verbs_device_attr_free = doca_error_t (*)(doca_verbs_device_attr* attr);
using verbs_attr_u32 = std::uint32_t (*)(const doca_verbs_device_attr* attr);
using verbs_attr_u16 = std::uint16_t (*)(const doca_verbs_device_attr* attr);
using verbs_attr_u8 = std::uint8_t (*)(const doca_verbs_device_attr* attr);
using verbs_attr_int = int (*)(const doca_verbs_device_attr* attr);
using verbs_attr_predicate = doca_error_t (*)(const doca_verbs_device_attr* attr);
}  // namespace fn

/// The width of a doca_verbs_device_attr_get_* getter's return value.
enum class AttrWidth { u32, u16, u8, atomic_cap };

/// One value getter of DOCA Verbs: symbol, the attribute name we report, and its return type.
struct VerbsAttrGetter {
    const char* symbol;
    const char* name;
    AttrWidth width;
};
/// max_qp, max_qp_wr, max_sge, max_cq, max_cqe, max_mr, max_pd, max_ah, max_srq, max_srq_wr,
/// max_srq_sge, max_pkeys, max_qp_rd_atom, max_qp_init_rd_atom, atomic_cap.
const std::vector<VerbsAttrGetter>& verbs_attr_getters();
/// The one-argument doca_verbs_device_attr_get_is_*_supported predicates of DOCA Verbs, as
/// (symbol, flag) pairs ("is_dpa_external_datapath_supported" -> "dpa_external_datapath").
const std::vector<std::pair<const char*, const char*>>& verbs_attr_predicates();

}  // namespace rdmi::doca
