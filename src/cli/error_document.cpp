// The error document.
#include "cli/error_document.hpp"

#include <nlohmann/json.hpp>

#include "build_info.hpp"

namespace rdmi::cli {

std::string error_document(const std::string& message, int exit_code) {
    nlohmann::ordered_json doc{
        {"schema", kErrorSchemaId},
        {"schema_version", "1.1.0"},
        {"tool", {{"name", build_info::kToolName}, {"version", build_info::kVersion}}},
        {"error", {{"message", message}, {"exit_code", exit_code}}}};
    // Replace invalid UTF-8 (a file name from a broken tree) rather than throw.
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace rdmi::cli
