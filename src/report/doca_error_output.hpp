// The `error` command's documents: one DOCA error explained, as JSON
// (schemas/rdmi-probe-doca-error.schema.json) and as text.
#pragma once

#include <optional>
#include <string>

#include "doca_errors/doca_error_catalog.hpp"

namespace rdmi::report {

/// The $id of the error-explanation schema.
inline constexpr const char* kDocaErrorSchemaId = "urn:rdmi-probe:schema:doca-error";
/// 1.1 added call.basis and call.documented_in.
inline constexpr const char* kDocaErrorSchemaVersion = "1.1.0";

/// The $id of the schema of `error --list-calls --json`.
inline constexpr const char* kDocaErrorCallsSchemaId = "urn:rdmi-probe:schema:doca-error-calls";
/// The version of that schema.
inline constexpr const char* kDocaErrorCallsSchemaVersion = "1.0.0";

/// What `error` was asked and found.
struct DocaErrorQuery {
    std::string query;                     ///< as typed ("bad_state")
    doca::ErrorEntry entry;                ///< the error it names
    std::optional<std::string> call;       ///< --call FUNCTION, when given
    std::optional<doca::CallCause> cause;  ///< the recorded cause for call + error, if any
};

/// The JSON document.
std::string doca_error_json(const DocaErrorQuery& query);
/// The human text.
std::string doca_error_text(const DocaErrorQuery& query);

/// `error --list-calls --json`: every call with recorded causes, each cause with its error.
std::string doca_error_calls_json();
/// `error --list-calls`: the same, one block per call.
std::string doca_error_calls_text();

}  // namespace rdmi::report
