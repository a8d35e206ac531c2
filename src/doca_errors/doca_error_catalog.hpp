// What each doca_error_t means to someone bringing up DPA and RDMI code: the layer it points at,
// the first three things to check on this machine (each with the rdmi-probe command that checks
// it), and the specific cause for the calls this project knows. Pure data and lookups.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmi::doca {

/// Where an error points (the RDMI error taxonomy, widened to every doca_error_t).
enum class ErrorLayer {
    none,             ///< DOCA_SUCCESS
    configuration,    ///< an argument, a size or a setting the caller chose
    lifecycle_order,  ///< a call made in the wrong state (before start, after start, ...)
    unsupported,      ///< this device or this DOCA lacks the feature or the symbol
    version,          ///< the pieces of DOCA disagree in version
    resources,        ///< a budget of memory, queue entries or objects ran out
    transient,        ///< try again later; nothing is wrong yet
    data_path,        ///< a work request or a connection failed on the wire
    below_doca,       ///< the driver, the firmware, the OS or permissions
    internal,         ///< DOCA itself cannot say
};

/// The stable JSON name of a layer ("lifecycle-order").
std::string_view to_string(ErrorLayer layer);
/// One line saying what the layer means.
std::string_view describe(ErrorLayer layer);

/// One thing to check, and the rdmi-probe command that checks it.
struct ErrorCheck {
    std::string_view what;
    std::string_view command;
};

/// One doca_error_t value explained.
struct ErrorEntry {
    int number = 0;
    std::string_view name;         ///< "DOCA_ERROR_BAD_STATE"
    std::string_view description;  ///< the doca_error.h enum comment ("Bad State")
    ErrorLayer layer = ErrorLayer::internal;
    std::string_view meaning;  ///< what it usually means to DPA/RDMI code
    std::array<ErrorCheck, 3> checks;
};

/// Where a call cause comes from: the call's own documentation, or this project's reading of
/// the object lifecycle when the documentation lists no cause for that error.
enum class CauseBasis { documented, inferred };

/// "documented" or "inferred".
std::string_view to_string(CauseBasis basis);

/// A cause specific to one call and one error.
struct CallCause {
    std::string_view call;  ///< "doca_rdmi_connection_dpa_completion_attach"
    int number = 0;
    std::string_view cause;  ///< "attached after doca_ctx_start"
    std::string_view fix;
    CauseBasis basis = CauseBasis::inferred;
    /// The header that lists this error for this call ("doca_mmap.h"); "" when inferred.
    std::string_view documented_in;
};

/// One line saying where `cause` comes from ("documented in doca_mmap.h", "inferred from the
/// lifecycle ...").
std::string basis_text(const CallCause& cause);

/// Every entry, in number order (0..31).
const std::vector<ErrorEntry>& error_entries();

/// The entry for "DOCA_ERROR_BAD_STATE", "BAD_STATE", "bad_state", "bad-state" or "18"; nullopt
/// for anything else.
std::optional<ErrorEntry> find_error(std::string_view query);

/// Up to `count` names closest to `query` (edit distance over the short names), best first.
std::vector<std::string> closest_error_names(std::string_view query, std::size_t count = 3);

/// The recorded cause of `number` returned by `call`, if the project knows one.
std::optional<CallCause> find_call_cause(std::string_view call, int number);

/// Every call with a recorded cause, sorted, each once.
std::vector<std::string> known_calls();

/// Up to `count` calls with recorded causes closest to `query` (edit distance), best first.
std::vector<std::string> closest_call_names(std::string_view query, std::size_t count = 3);

/// True when `call` has any recorded cause.
bool known_call(std::string_view call);

/// Every recorded call cause.
const std::vector<CallCause>& call_causes();

}  // namespace rdmi::doca
