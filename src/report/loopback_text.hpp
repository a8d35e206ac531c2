// The loopback verdict as human text.
#pragma once

#include <string>

#include "probes/loopback/loopback.hpp"
#include "report/text_style.hpp"

namespace rdmi::text {

/// Steps with outcome and duration, the failure with its layer and first action, the figures,
/// the self-test, teardown problems and the unconfirmed facts, then the verdict line.
std::string loopback(const TextStyle& style, const LoopbackVerdict& verdict);

}  // namespace rdmi::text
