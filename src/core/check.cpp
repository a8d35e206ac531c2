// Check helpers.
#include "core/check.hpp"

namespace rdmi {

std::string_view to_string(Status status) {
    switch (status) {
        case Status::pass:
            return "pass";
        case Status::fail:
            return "fail";
        case Status::skip:
            return "skip";
        case Status::info:
            return "info";
        case Status::warn:
            return "warn";
    }
    return "info";
}

StatusCounts count_statuses(const std::vector<Check>& checks) {
    StatusCounts counts;
    for (const auto& check : checks) {
        switch (check.status) {
            case Status::pass:
                ++counts.pass;
                break;
            case Status::fail:
                ++counts.fail;
                break;
            case Status::skip:
                ++counts.skip;
                break;
            case Status::info:
                ++counts.info;
                break;
            case Status::warn:
                ++counts.warn;
                break;
        }
    }
    return counts;
}

Status overall_status(const std::vector<Check>& checks) {
    const auto counts = count_statuses(checks);
    if (counts.fail > 0) return Status::fail;
    if (counts.skip > 0) return Status::skip;
    if (counts.warn > 0) return Status::warn;
    return Status::pass;
}

}  // namespace rdmi
