// Why a datum is missing: the reasons every probe and adapter reports instead of throwing.
#pragma once

#include <string>
#include <string_view>

namespace rdmi {

/// Why a fact could not be had. The names are part of the JSON interface.
enum class GapReason {
    not_found,          ///< the file, module, symbol or device does not exist
    not_installed,      ///< a component (DOCA, rdma-core, a tool) is not installed
    permission_denied,  ///< the OS refused access
    timeout,            ///< a deadline expired
    not_applicable,     ///< the question does not apply here (e.g. live call under --root)
    malformed,          ///< the input exists but cannot be parsed
    untrusted,          ///< a library was not loaded because its path is not trusted
    error,              ///< anything else; the message says what
};

/// The stable JSON name of a reason.
std::string_view to_string(GapReason reason);

/// A missing datum and the one-line explanation of why ("<path>: <problem>").
struct Gap {
    GapReason reason = GapReason::error;
    std::string message;
};

}  // namespace rdmi
