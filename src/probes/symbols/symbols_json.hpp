// The symbols probe's JSON: the report's `symbols` section, and the members of the audit that
// the `symbols` document (report/symbols_json) shares with it, so both say the same thing.
#pragma once

#include <cstddef>

#include "json/json_common.hpp"
#include "probes/symbols/symbols.hpp"

namespace rdmi::json {

/// How many members add_symbols_audit_members() appends (so callers reserve room for them).
inline constexpr std::size_t kSymbolsAuditMembers = 6;

/// The audit's figures (counts, the two differences, disagreements, loader, runtime), the same
/// members in the same order in the symbols document and in the report's summary of it:
/// appended to `out` after its own members.
void add_symbols_audit_members(Json& out, const SymbolsFacts& facts);

/// What was audited: module, its version, .pc file, libdir and prefix.
Json symbols_target(const SymbolsFacts& facts);

/// The library file: path, soname, ELF identity, version nodes, the archive beside it.
Json symbols_library(const SymbolsFacts& facts);

/// The headers scanned, and the device-side ones skipped.
Json symbols_headers(const SymbolsFacts& facts);

/// The application audit (`symbols --check`); null when none was asked for.
Json symbols_application(const SymbolsFacts& facts);

/// The report's `symbols` section: counts, lists, loader and runtime, no per-symbol detail.
Json symbols_summary(const SymbolsFacts& facts);

/// The report's `symbols` section when the audit could not be made: {"gap": {...}}.
Json symbols_gap(const Gap& gap);

}  // namespace rdmi::json
