// The last step of a check that found a fault it can name the fix for.
#pragma once

#include <string>
#include <utility>

#include "core/check.hpp"

namespace rdmi {

/// `check` judged failed, with `remediation` as its fix; its message already says what is wrong.
inline Check failed(Check check, std::string remediation) {
    check.status = Status::fail;
    check.remediation = std::move(remediation);
    return check;
}

}  // namespace rdmi
