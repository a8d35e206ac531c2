// The DOCA layer of the devices probe: doca_devinfo_create_list and, per device, identity and
// every capability predicate the installed DOCA libraries export, in one isolated child.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "context/context.hpp"
#include "core/check.hpp"
#include "probes/install/install.hpp"

namespace rdmi {

/// One capability call and its answer.
struct DocaCapAnswer {
    std::string library;  ///< "rdma" (the <lib> of doca_<lib>_cap_...)
    std::string flag;     ///< "task_write"
    std::string symbol;   ///< "doca_rdma_cap_task_write_is_supported"
    bool supported = false;
    std::string error;        ///< "DOCA_ERROR_NOT_SUPPORTED"; empty on success
    std::string description;  ///< doca_error_get_descr's text
};

/// A DOCA getter that failed: which, and the named error.
struct DocaCallError {
    std::string symbol;
    std::string error;
    std::string description;
};

/// doca_verbs_query_device's attributes (docs/reference/device-queries.md#verbs-device-attributes);
/// getters the library lacks are absent.
struct DocaVerbsAttrs {
    std::vector<std::pair<std::string, std::uint64_t>> values;  ///< max_qp, ...
    std::string atomic_cap;              ///< "none", "hca", "glob"; empty when unknown
    std::vector<std::string> supported;  ///< "dpa_external_datapath", ...
    std::vector<std::string> missing;    ///< getters not exported by this libdoca_verbs
    std::optional<Gap> gap;              ///< context create / query failed
};

/// One entry of doca_devinfo_create_list.
struct DocaDevice {
    std::string pci_address;  ///< "0000:03:00.0"
    std::string ibdev_name;
    std::string iface_name;
    std::string pci_func_type;           ///< "PF", "VF", "SF", or "" when unknown
    std::optional<bool> dpa;             ///< doca_dpa_cap_is_supported; nullopt without libdoca_dpa
    std::vector<DocaCapAnswer> answers;  ///< every predicate called, by symbol
    /// Supported flags by library ("rdma" -> ["task_read", "task_write"], "dpa" -> ["dpa"]):
    /// what the capability-snapshot document is built from.
    std::map<std::string, std::vector<std::string>> supported;
    std::vector<std::pair<std::string, std::uint64_t>> rdma_values;  ///< doca_rdma_cap_get_*
    std::vector<DocaCallError> errors;    ///< identity getters and value getters that failed
    std::optional<DocaVerbsAttrs> verbs;  ///< when libdoca_verbs is installed
};

/// Everything the DOCA layer learned.
struct DocaCapsFacts {
    std::vector<std::string> libraries;   ///< the libraries loaded (host paths), common first
    std::vector<Gap> library_gaps;        ///< libraries not loaded (untrusted, ...)
    std::vector<std::string> predicates;  ///< capability symbols discovered, by symbol
    std::string error_names;              ///< "doca_error_get_name" or "fallback table"
    std::optional<Gap> gap;               ///< why there is no device list
    std::vector<DocaDevice> devices;
};

/// The DOCA libraries to load: libdoca_common from the install facts, then every other
/// libdoca_<x>.so.<major> (or .so) in the same directory, one per library. In-root paths.
std::vector<std::string> doca_libraries_to_load(const Fs& fs, const InstallFacts& install);

/// Runs the DOCA layer (live only): trust-checks the libraries, then in one child bounded by
/// ctx.call_deadline() loads them, discovers the predicates, lists the devices and asks.
DocaCapsFacts probe_doca_caps(const ProbeContext& ctx, const std::optional<InstallFacts>& install);

/// What the child runs: `libraries` are absolute paths, libdoca_common first.
DocaCapsFacts query_doca_caps(const std::vector<std::string>& libraries);

/// The child-to-parent wire format (JSON text).
std::string encode_doca_caps(const DocaCapsFacts& facts);
/// Parses what encode_doca_caps produced; a malformed Gap for anything else.
Result<DocaCapsFacts> decode_doca_caps(std::string_view text);

}  // namespace rdmi
