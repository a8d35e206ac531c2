// Fallback names and descriptions of doca_error_t values (docs/reference/error-codes.md), used
// when the loaded library cannot name its own errors.
#include "api/doca_types.hpp"

#include <array>

namespace rdmi::doca {
namespace {

struct ErrorText {
    std::string_view name;
    std::string_view description;
};

constexpr std::array<ErrorText, 32> kErrors{{
    {"DOCA_SUCCESS", "Success"},
    {"DOCA_ERROR_UNKNOWN", "Unknown error"},
    {"DOCA_ERROR_NOT_PERMITTED", "Operation not permitted"},
    {"DOCA_ERROR_IN_USE", "Resource already in use"},
    {"DOCA_ERROR_NOT_SUPPORTED", "Operation not supported"},
    {"DOCA_ERROR_AGAIN", "Resource temporarily unavailable, try again"},
    {"DOCA_ERROR_INVALID_VALUE", "Invalid input"},
    {"DOCA_ERROR_NO_MEMORY", "Memory allocation failure"},
    {"DOCA_ERROR_INITIALIZATION", "Resource initialization failure"},
    {"DOCA_ERROR_TIME_OUT", "Timer expired waiting for resource"},
    {"DOCA_ERROR_SHUTDOWN", "Shut down in process or completed"},
    {"DOCA_ERROR_CONNECTION_RESET", "Connection reset by peer"},
    {"DOCA_ERROR_CONNECTION_ABORTED", "Connection aborted"},
    {"DOCA_ERROR_CONNECTION_INPROGRESS", "Connection in progress"},
    {"DOCA_ERROR_NOT_CONNECTED", "Not Connected"},
    {"DOCA_ERROR_NO_LOCK", "Unable to acquire required lock"},
    {"DOCA_ERROR_NOT_FOUND", "Resource Not Found"},
    {"DOCA_ERROR_IO_FAILED", "Input/Output Operation Failed"},
    {"DOCA_ERROR_BAD_STATE", "Bad State"},
    {"DOCA_ERROR_UNSUPPORTED_VERSION", "Unsupported version"},
    {"DOCA_ERROR_OPERATING_SYSTEM", "Operating system call failure"},
    {"DOCA_ERROR_DRIVER", "DOCA Driver call failure"},
    {"DOCA_ERROR_UNEXPECTED", "An unexpected scenario was detected"},
    {"DOCA_ERROR_ALREADY_EXIST", "Resource already exist"},
    {"DOCA_ERROR_FULL", "No more space in resource"},
    {"DOCA_ERROR_EMPTY", "No entry is available in resource"},
    {"DOCA_ERROR_IN_PROGRESS", "Operation is in progress"},
    {"DOCA_ERROR_TOO_BIG", "Requested operation too big to be contained"},
    {"DOCA_ERROR_AUTHENTICATION", "Authentication failure"},
    {"DOCA_ERROR_BAD_CONFIG", "Configuration is not valid"},
    {"DOCA_ERROR_SKIPPED", "Result is valid, but some previous output data was dropped"},
    {"DOCA_ERROR_DEVICE_FATAL_ERROR", "Device experienced a fatal error"},
}};

}  // namespace

std::string_view fallback_error_name(int error) {
    if (error < 0 || static_cast<std::size_t>(error) >= kErrors.size())
        return "DOCA_ERROR_UNRECOGNIZED";
    return kErrors[static_cast<std::size_t>(error)].name;
}

std::string_view fallback_error_description(int error) {
    if (error < 0 || static_cast<std::size_t>(error) >= kErrors.size()) return "";
    return kErrors[static_cast<std::size_t>(error)].description;
}

}  // namespace rdmi::doca
