// The human summary of the full report.
#pragma once

#include <string>

#include "model/facts.hpp"
#include "report/text_style.hpp"

namespace rdmi::text {

/// Heading, the checks (failures first, each with its fix), then the verdict.
std::string report(const TextStyle& style, const Facts& report);

}  // namespace rdmi::text
