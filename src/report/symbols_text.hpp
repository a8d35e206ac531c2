// Human text of a symbols audit: the per-library summary first, every symbol with -v.
#pragma once

#include <string>

#include "probes/symbols/symbols.hpp"
#include "report/text_style.hpp"

namespace rdmi::text {

/// The summary (counts, missing, disagreements, loader, runtime, application), then the
/// checks; with verbosity >= 1 the full per-symbol list with its evidence.
std::string symbols(const TextStyle& style, const SymbolsFacts& facts);

}  // namespace rdmi::text
