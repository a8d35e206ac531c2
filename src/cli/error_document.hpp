// The JSON document printed instead of a result when a run cannot produce one.
#pragma once

#include <string>

namespace rdmi::cli {

/// The error schema's id.
inline constexpr const char* kErrorSchemaId = "urn:rdmi-probe:schema:error";

/// A complete JSON document (schemas/rdmi-probe-error.schema.json) with a trailing newline.
std::string error_document(const std::string& message, int exit_code);

}  // namespace rdmi::cli
