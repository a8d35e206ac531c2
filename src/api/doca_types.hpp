// Hand-written minimal DOCA declarations (docs/reference/error-codes.md,
// docs/reference/device-queries.md, docs/reference/dpa-lifecycle.md): opaque types, the error
// enum, and the prototypes of the core functions every DOCA adapter needs. No DOCA SDK is needed
// to build rdmi-probe; these are checked against DOCA's published headers, not included from
// them.
#pragma once

#include <cstdint>
#include <string_view>

extern "C" {
struct doca_devinfo;
struct doca_dev;
struct doca_ctx;
struct doca_dpa;
struct doca_dpa_app;
struct doca_dpa_completion;
struct doca_sync_event;
struct doca_mmap;
struct doca_rdma;
struct doca_rdma_connection;
struct doca_verbs_context;
struct doca_verbs_device_attr;
}

namespace rdmi::doca {

/// doca_error_t (doca_error.h); values are ABI.
enum class Error : int {
    success = 0,
    unknown = 1,
    not_permitted = 2,
    in_use = 3,
    not_supported = 4,
    again = 5,
    invalid_value = 6,
    no_memory = 7,
    initialization = 8,
    time_out = 9,
    shutdown = 10,
    connection_reset = 11,
    connection_aborted = 12,
    connection_inprogress = 13,
    not_connected = 14,
    no_lock = 15,
    not_found = 16,
    io_failed = 17,
    bad_state = 18,
    unsupported_version = 19,
    operating_system = 20,
    driver = 21,
    unexpected = 22,
    already_exist = 23,
    full = 24,
    empty = 25,
    in_progress = 26,
    too_big = 27,
    authentication = 28,
    bad_config = 29,
    skipped = 30,
    device_fatal_error = 31,
};

/// The C type DOCA functions return: `typedef enum doca_error {...} doca_error_t` (doca_error.h).
/// Unscoped like the C declaration. Its underlying type is fixed to the one GCC and clang give
/// DOCA's own enum (unsigned int: no negative values; the tests assert it against the fake's
/// header) so that any code a library returns is a valid value, not undefined behaviour.
/// Values are ABI and equal Error's.
enum doca_error_t : unsigned int {
    DOCA_SUCCESS = 0,
    DOCA_ERROR_UNKNOWN = 1,
    DOCA_ERROR_NOT_PERMITTED = 2,
    DOCA_ERROR_IN_USE = 3,
    DOCA_ERROR_NOT_SUPPORTED = 4,
    DOCA_ERROR_AGAIN = 5,
    DOCA_ERROR_INVALID_VALUE = 6,
    DOCA_ERROR_NO_MEMORY = 7,
    DOCA_ERROR_INITIALIZATION = 8,
    DOCA_ERROR_TIME_OUT = 9,
    DOCA_ERROR_SHUTDOWN = 10,
    DOCA_ERROR_CONNECTION_RESET = 11,
    DOCA_ERROR_CONNECTION_ABORTED = 12,
    DOCA_ERROR_CONNECTION_INPROGRESS = 13,
    DOCA_ERROR_NOT_CONNECTED = 14,
    DOCA_ERROR_NO_LOCK = 15,
    DOCA_ERROR_NOT_FOUND = 16,
    DOCA_ERROR_IO_FAILED = 17,
    DOCA_ERROR_BAD_STATE = 18,
    DOCA_ERROR_UNSUPPORTED_VERSION = 19,
    DOCA_ERROR_OPERATING_SYSTEM = 20,
    DOCA_ERROR_DRIVER = 21,
    DOCA_ERROR_UNEXPECTED = 22,
    DOCA_ERROR_ALREADY_EXIST = 23,
    DOCA_ERROR_FULL = 24,
    DOCA_ERROR_EMPTY = 25,
    DOCA_ERROR_IN_PROGRESS = 26,
    DOCA_ERROR_TOO_BIG = 27,
    DOCA_ERROR_AUTHENTICATION = 28,
    DOCA_ERROR_BAD_CONFIG = 29,
    DOCA_ERROR_SKIPPED = 30,
    DOCA_ERROR_DEVICE_FATAL_ERROR = 31,
};
static_assert(sizeof(doca_error_t) == sizeof(int), "doca_error_t is returned in an int register");
static_assert(static_cast<int>(DOCA_ERROR_BAD_STATE) == static_cast<int>(Error::bad_state));
static_assert(static_cast<int>(DOCA_ERROR_DEVICE_FATAL_ERROR) ==
              static_cast<int>(Error::device_fatal_error));

/// "DOCA_ERROR_BAD_STATE" for 18; the fallback when the library's doca_error_get_name is absent.
std::string_view fallback_error_name(int error);

/// The enum comment's description ("Bad State"); empty for codes without a recorded description.
std::string_view fallback_error_description(int error);

/// enum doca_pci_func_type (doca_types.h).
enum class PciFuncType : int { pf = 0, vf = 1, sf = 2 };
/// The C enum itself, as doca_devinfo_get_pci_func_type writes it (unscoped, underlying type
/// fixed as doca_error_t's is).
enum doca_pci_func_type : unsigned int {
    DOCA_PCI_FUNC_TYPE_PF = 0,
    DOCA_PCI_FUNC_TYPE_VF = 1,
    DOCA_PCI_FUNC_TYPE_SF = 2,
};

/// Prototypes of the core functions, as function-pointer types for typed dlsym tables.
namespace fn {
using devinfo_create_list = doca_error_t (*)(doca_devinfo*** dev_list, std::uint32_t* nb_devs);
using devinfo_destroy_list = doca_error_t (*)(doca_devinfo** dev_list);
using devinfo_get_pci_addr_str = doca_error_t (*)(const doca_devinfo* devinfo, char* pci_addr_str);
using devinfo_get_ibdev_name = doca_error_t (*)(const doca_devinfo* devinfo, char* name,
                                                std::uint32_t size);
using devinfo_get_iface_name = doca_error_t (*)(const doca_devinfo* devinfo, char* name,
                                                std::uint32_t size);
using devinfo_get_pci_func_type = doca_error_t (*)(const doca_devinfo* devinfo,
                                                   doca_pci_func_type* pci_func_type);
using dev_open = doca_error_t (*)(doca_devinfo* devinfo, doca_dev** dev);
using dev_close = doca_error_t (*)(doca_dev* dev);
using error_get_name = const char* (*)(doca_error_t error);
using error_get_descr = const char* (*)(doca_error_t error);
using version_runtime = const char* (*)();
/// doca_verbs_context_create(devinfo, flags, &ctx): the capability query opens one for the
/// device attributes (docs/reference/device-queries.md#verbs-device-attributes), the loopback
/// for its RDMI self-test.
using verbs_context_create = doca_error_t (*)(doca_devinfo* devinfo, std::uint32_t flags,
                                              doca_verbs_context** context);
using verbs_context_destroy = doca_error_t (*)(doca_verbs_context* context);
/// The shape of every doca_<lib>_cap_*_is_supported(devinfo) query and doca_dpa_cap_is_supported.
using devinfo_predicate = doca_error_t (*)(const doca_devinfo* devinfo);
}  // namespace fn

/// Size of the buffer doca_devinfo_get_pci_addr_str fills ("XXXX:XX:XX.X" + NUL).
inline constexpr std::uint32_t kPciAddrSize = 13;
/// DOCA_DEVINFO_IBDEV_NAME_SIZE.
inline constexpr std::uint32_t kIbdevNameSize = 64;
/// DOCA_DEVINFO_IFACE_NAME_SIZE.
inline constexpr std::uint32_t kIfaceNameSize = 256;

}  // namespace rdmi::doca
