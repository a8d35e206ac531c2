// Stable names of gap reasons.
#include "core/gap.hpp"

namespace rdmi {

std::string_view to_string(GapReason reason) {
    switch (reason) {
        case GapReason::not_found:
            return "not_found";
        case GapReason::not_installed:
            return "not_installed";
        case GapReason::permission_denied:
            return "permission_denied";
        case GapReason::timeout:
            return "timeout";
        case GapReason::not_applicable:
            return "not_applicable";
        case GapReason::malformed:
            return "malformed";
        case GapReason::untrusted:
            return "untrusted";
        case GapReason::error:
            return "error";
    }
    return "error";
}

}  // namespace rdmi
