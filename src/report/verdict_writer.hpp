// The per-symbol entries of the symbols document, written straight into the output text.
#pragma once

#include <cstddef>
#include <string>

#include "elf/symbol_audit.hpp"

namespace rdmi::json {

/// Appends `verdict` as a JSON object in json::dump's exact layout, as if it were nested
/// `indent` spaces deep (its members at indent + 2). A 100k-symbol audit spends most of its time
/// here: building and serialising one nlohmann object per symbol cost ten times as much.
void append_verdict(std::string& out, const SymbolVerdict& verdict, std::size_t indent);

}  // namespace rdmi::json
