// The DOCA functions the DPA loopback orchestration calls (docs/reference/dpa-lifecycle.md), as a
// table of typed function pointers filled by dlsym from the loaded DOCA libraries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "api/doca_types.hpp"
#include "core/result.hpp"
#include "loader/dynamic_library.hpp"

extern "C" {
struct doca_sync_event_remote_net;
struct doca_rdmi_poster;
union doca_data;
/// typedef void (doca_dpa_func_t)(void) (doca_dpa.h).
using doca_dpa_func_t = void();
}

namespace rdmi::doca {

/// DPA-side handle types (docs/reference/dpa-lifecycle.md#handle-types); doca_dpa_dev_mmap_t
/// alone is 32-bit.
using dpa_dev_t = std::uint64_t;
using dpa_dev_uintptr_t = std::uint64_t;
using dpa_dev_completion_t = std::uint64_t;
using dpa_dev_rdma_t = std::uint64_t;
using dpa_dev_sync_event_t = std::uint64_t;
using dpa_dev_sync_event_remote_net_t = std::uint64_t;
using dpa_dev_mmap_t = std::uint32_t;

/// enum doca_access_flag bits (doca_types.h).
inline constexpr std::uint32_t kAccessLocalReadWrite = 1U << 0;
inline constexpr std::uint32_t kAccessRdmaRead = 1U << 1;
inline constexpr std::uint32_t kAccessRdmaWrite = 1U << 2;
inline constexpr std::uint32_t kAccessRdmaAtomic = 1U << 3;

/// Prototypes of the DPA/RDMA/mmap/sync-event functions, named after the symbol minus "doca_".
namespace dpa_fn {
// The device, error and verbs-context prototypes every DOCA table shares (doca_types.hpp):
// dpa_fn::dev_open is fn::dev_open, not a second declaration of it.
using namespace fn;  // NOLINT(google-build-using-namespace): a re-export, not a convenience
using ctx_start = doca_error_t (*)(doca_ctx* ctx);
using ctx_stop = doca_error_t (*)(doca_ctx* ctx);
using ctx_set_datapath_on_dpa = doca_error_t (*)(doca_ctx* ctx, doca_dpa* dpa);

using dpa_cap_is_supported = fn::devinfo_predicate;
/// doca_dev.h: 1 when the device has network representors, which on a DPA-capable PF means the
/// BlueField Arm side in DPU mode (samples/doca_dpa: RDMA then needs an extended DPA on an SF).
using devinfo_rep_cap_is_filter_net_supported =
    doca_error_t (*)(const doca_devinfo* devinfo, std::uint8_t* filter_net_supported);
using dpa_create = doca_error_t (*)(doca_dev* dev, doca_dpa** dpa);
using dpa_set_app = doca_error_t (*)(doca_dpa* dpa, doca_dpa_app* app);
using dpa_start = doca_error_t (*)(doca_dpa* dpa);
using dpa_destroy = doca_error_t (*)(doca_dpa* dpa);
using dpa_peek_at_last_error = doca_error_t (*)(const doca_dpa* dpa);
/// Seconds a kernel may run before the DPA may terminate it (fatal); doca_dpa.h, EXPERIMENTAL.
using dpa_get_kernel_max_run_time = doca_error_t (*)(const doca_dpa* dpa,
                                                     unsigned long long* value);
using dpa_kernel_launch_update_set = doca_error_t (*)(doca_dpa* dpa, doca_sync_event* wait_event,
                                                      std::uint64_t wait_threshold,
                                                      doca_sync_event* comp_event,
                                                      std::uint64_t comp_count,
                                                      unsigned int num_threads,
                                                      doca_dpa_func_t* func, ...);
using dpa_mem_alloc = doca_error_t (*)(doca_dpa* dpa, std::size_t size, dpa_dev_uintptr_t* ptr);
using dpa_mem_free = doca_error_t (*)(doca_dpa* dpa, dpa_dev_uintptr_t ptr);
using dpa_memset = doca_error_t (*)(doca_dpa* dpa, dpa_dev_uintptr_t ptr, int value,
                                    std::size_t size);
using dpa_d2h_memcpy = doca_error_t (*)(doca_dpa* dpa, void* dst, dpa_dev_uintptr_t src,
                                        std::size_t size);
using dpa_completion_create = doca_error_t (*)(doca_dpa* dpa, unsigned int queue_size,
                                               doca_dpa_completion** comp);
using dpa_completion_start = doca_error_t (*)(doca_dpa_completion* comp);
using dpa_completion_get_dpa_handle = doca_error_t (*)(doca_dpa_completion* comp,
                                                       dpa_dev_completion_t* handle);
using dpa_completion_stop = doca_error_t (*)(doca_dpa_completion* comp);
using dpa_completion_destroy = doca_error_t (*)(doca_dpa_completion* comp);

using rdma_cap_task_write_is_supported = fn::devinfo_predicate;
using rdma_create = doca_error_t (*)(doca_dev* dev, doca_rdma** rdma);
using rdma_destroy = doca_error_t (*)(doca_rdma* rdma);
using rdma_as_ctx = doca_ctx* (*)(doca_rdma* rdma);
using rdma_set_permissions = doca_error_t (*)(doca_rdma* rdma, std::uint32_t permissions);
using rdma_set_grh_enabled = doca_error_t (*)(doca_rdma* rdma, std::uint8_t grh_enabled);
using rdma_dpa_completion_attach = doca_error_t (*)(doca_rdma* rdma, doca_dpa_completion* comp);
using rdma_get_dpa_handle = doca_error_t (*)(doca_rdma* rdma, dpa_dev_rdma_t* handle);
using rdma_export = doca_error_t (*)(doca_rdma* rdma, const void** details, std::size_t* size,
                                     doca_rdma_connection** connection);
using rdma_connect = doca_error_t (*)(doca_rdma* rdma, const void* remote_details, std::size_t size,
                                      doca_rdma_connection* connection);
using rdma_connection_get_id = doca_error_t (*)(const doca_rdma_connection* connection,
                                                std::uint32_t* id);

using mmap_create = doca_error_t (*)(doca_mmap** mmap);
using mmap_set_permissions = doca_error_t (*)(doca_mmap* mmap, std::uint32_t access_mask);
using mmap_set_memrange = doca_error_t (*)(doca_mmap* mmap, void* addr, std::size_t len);
using mmap_add_dev = doca_error_t (*)(doca_mmap* mmap, doca_dev* dev);
using mmap_start = doca_error_t (*)(doca_mmap* mmap);
using mmap_stop = doca_error_t (*)(doca_mmap* mmap);
using mmap_destroy = doca_error_t (*)(doca_mmap* mmap);
using mmap_dev_get_dpa_handle = doca_error_t (*)(doca_mmap* mmap, const doca_dev* dev,
                                                 dpa_dev_mmap_t* handle);
/// The descriptor a peer turns into an mmap of this memory (doca_mmap.h).
using mmap_export_rdma = doca_error_t (*)(doca_mmap* mmap, const doca_dev* dev,
                                          const void** export_desc, std::size_t* export_desc_len);
/// The peer's side of mmap_export_rdma; `user_data` may be NULL (doca_mmap.h).
using mmap_create_from_export = doca_error_t (*)(const doca_data* user_data,
                                                 const void* export_desc,
                                                 std::size_t export_desc_len, doca_dev* dev,
                                                 doca_mmap** mmap);

using sync_event_create = doca_error_t (*)(doca_sync_event** event);
using sync_event_add_publisher_location_dpa = doca_error_t (*)(doca_sync_event* ev, doca_dpa* dpa);
using sync_event_add_publisher_location_remote_net = doca_error_t (*)(doca_sync_event* ev);
using sync_event_add_subscriber_location_cpu = doca_error_t (*)(doca_sync_event* ev, doca_dev* dev);
using sync_event_add_subscriber_location_dpa = doca_error_t (*)(doca_sync_event* ev, doca_dpa* dpa);
using sync_event_start = doca_error_t (*)(doca_sync_event* ev);
using sync_event_stop = doca_error_t (*)(doca_sync_event* ev);
using sync_event_destroy = doca_error_t (*)(doca_sync_event* ev);
using sync_event_get_dpa_handle = doca_error_t (*)(doca_sync_event* ev, doca_dpa* dpa,
                                                   dpa_dev_sync_event_t* handle);
using sync_event_get = doca_error_t (*)(doca_sync_event* ev, std::uint64_t* value);
using sync_event_export_to_remote_net = doca_error_t (*)(doca_sync_event* ev,
                                                         const std::uint8_t** data,
                                                         std::size_t* size);
using sync_event_remote_net_create_from_export = doca_error_t (*)(
    doca_dev* dev, const std::uint8_t* data, std::size_t size, doca_sync_event_remote_net** event);
using sync_event_remote_net_get_dpa_handle = doca_error_t (*)(
    doca_sync_event_remote_net* ev, doca_dpa* dpa, dpa_dev_sync_event_remote_net_t* handle);
using sync_event_remote_net_destroy = doca_error_t (*)(doca_sync_event_remote_net* ev);
/// doca_sync_event.h capability predicates (EXPERIMENTAL): DOCA_SUCCESS when supported.
using sync_event_cap_is_export_to_dpa_supported = fn::devinfo_predicate;
using sync_event_cap_is_export_to_remote_net_supported = fn::devinfo_predicate;
using sync_event_cap_remote_net_is_create_from_export_supported = fn::devinfo_predicate;
using sync_event_cap_remote_net_is_export_to_dpa_supported = fn::devinfo_predicate;

// RDMI, for the lifecycle self-test only (with the verbs context the capability query opens:
// fn::verbs_context_create). The RDMI parameter types are not confirmed
// (docs/reference/symbol-stability.md#rdmi-names: NVIDIA's agent guidance only);
// doca_rdmi_poster_as_ctx may not exist.
using rdmi_poster_create = doca_error_t (*)(doca_verbs_context* ctx, doca_rdmi_poster** poster);
using rdmi_poster_dpa_completion_attach = doca_error_t (*)(doca_rdmi_poster* poster,
                                                           doca_dpa_completion* comp);
using rdmi_poster_as_ctx = doca_ctx* (*)(doca_rdmi_poster* poster);
using rdmi_poster_destroy = doca_error_t (*)(doca_rdmi_poster* poster);
}  // namespace dpa_fn

// X(name): the symbol is "doca_" #name and the type dpa_fn::name.
/// Functions without which the loopback cannot run at all.
#define RDMI_DOCA_DPA_REQUIRED(X)                   \
    X(devinfo_create_list)                          \
    X(devinfo_destroy_list)                         \
    X(devinfo_get_pci_addr_str)                     \
    X(devinfo_get_ibdev_name)                       \
    X(dev_open)                                     \
    X(dev_close)                                    \
    X(ctx_start)                                    \
    X(ctx_stop)                                     \
    X(ctx_set_datapath_on_dpa)                      \
    X(dpa_cap_is_supported)                         \
    X(dpa_create)                                   \
    X(dpa_set_app)                                  \
    X(dpa_start)                                    \
    X(dpa_destroy)                                  \
    X(dpa_peek_at_last_error)                       \
    X(dpa_kernel_launch_update_set)                 \
    X(dpa_mem_alloc)                                \
    X(dpa_mem_free)                                 \
    X(dpa_memset)                                   \
    X(dpa_d2h_memcpy)                               \
    X(dpa_completion_create)                        \
    X(dpa_completion_start)                         \
    X(dpa_completion_get_dpa_handle)                \
    X(dpa_completion_stop)                          \
    X(dpa_completion_destroy)                       \
    X(rdma_create)                                  \
    X(rdma_destroy)                                 \
    X(rdma_as_ctx)                                  \
    X(rdma_set_permissions)                         \
    X(rdma_set_grh_enabled)                         \
    X(rdma_dpa_completion_attach)                   \
    X(rdma_get_dpa_handle)                          \
    X(rdma_export)                                  \
    X(rdma_connect)                                 \
    X(rdma_connection_get_id)                       \
    X(mmap_create)                                  \
    X(mmap_set_permissions)                         \
    X(mmap_set_memrange)                            \
    X(mmap_add_dev)                                 \
    X(mmap_start)                                   \
    X(mmap_stop)                                    \
    X(mmap_destroy)                                 \
    X(mmap_dev_get_dpa_handle)                      \
    X(mmap_export_rdma)                             \
    X(mmap_create_from_export)                      \
    X(sync_event_create)                            \
    X(sync_event_add_publisher_location_dpa)        \
    X(sync_event_add_publisher_location_remote_net) \
    X(sync_event_add_subscriber_location_cpu)       \
    X(sync_event_add_subscriber_location_dpa)       \
    X(sync_event_start)                             \
    X(sync_event_stop)                              \
    X(sync_event_destroy)                           \
    X(sync_event_get_dpa_handle)                    \
    X(sync_event_get)                               \
    X(sync_event_export_to_remote_net)              \
    X(sync_event_remote_net_create_from_export)     \
    X(sync_event_remote_net_get_dpa_handle)         \
    X(sync_event_remote_net_destroy)

/// Functions used when present: error naming, newer getters, the RDMI self-test objects.
#define RDMI_DOCA_DPA_OPTIONAL(X)                                \
    X(error_get_name)                                            \
    X(error_get_descr)                                           \
    X(devinfo_get_pci_func_type)                                 \
    X(devinfo_rep_cap_is_filter_net_supported)                   \
    X(rdma_cap_task_write_is_supported)                          \
    X(dpa_get_kernel_max_run_time)                               \
    X(sync_event_cap_is_export_to_dpa_supported)                 \
    X(sync_event_cap_is_export_to_remote_net_supported)          \
    X(sync_event_cap_remote_net_is_create_from_export_supported) \
    X(sync_event_cap_remote_net_is_export_to_dpa_supported)      \
    X(verbs_context_create)                                      \
    X(verbs_context_destroy)                                     \
    X(rdmi_poster_create)                                        \
    X(rdmi_poster_dpa_completion_attach)                         \
    X(rdmi_poster_as_ctx)                                        \
    X(rdmi_poster_destroy)

/// The function table. A null member is a symbol no loaded library exports.
struct DocaDpaApi {
#define RDMI_DOCA_DPA_MEMBER(name) dpa_fn::name name = nullptr;
    RDMI_DOCA_DPA_REQUIRED(RDMI_DOCA_DPA_MEMBER)
    RDMI_DOCA_DPA_OPTIONAL(RDMI_DOCA_DPA_MEMBER)
#undef RDMI_DOCA_DPA_MEMBER

    /// doca_error_get_name() when exported, else the fallback table.
    [[nodiscard]] std::string error_name(int error) const;
    /// doca_error_get_descr() verbatim when exported, else the fallback description.
    [[nodiscard]] std::string error_description(int error) const;
    /// True when every function of the RDMI poster self-test is exported.
    [[nodiscard]] bool has_rdmi_poster() const;
};

/// The libraries a table was filled from, kept open as long as the table is used.
struct LoadedDocaDpaApi {
    std::vector<DynamicLibrary> libraries;
    std::vector<std::string> loaded_paths;  ///< files the loader really mapped, in order
    DocaDpaApi api;
    std::vector<std::string> missing_required;  ///< "doca_dpa_start", ...
    std::vector<std::string> missing_optional;
};

/// dlopens each path (already trust-checked by the caller, and only inside run_isolated on a
/// live system) and resolves every function across all of them, first library first. A Gap
/// only when a library cannot be opened; missing symbols are listed, not errors.
Result<LoadedDocaDpaApi> load_doca_dpa_api(const std::vector<std::string>& paths);

}  // namespace rdmi::doca
