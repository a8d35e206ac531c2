// The `symbols` JSON document (schemas/rdmi-probe-symbols.schema.json); the report's summary of
// it is the symbols probe's section (probes/symbols/symbols_json.hpp).
#pragma once

#include <string>
#include <string_view>

#include "json/json_common.hpp"
#include "model/facts.hpp"
#include "probes/symbols/symbols.hpp"

namespace rdmi::json {

/// The schema id of the symbols document.
inline constexpr const char* kSymbolsSchemaId = "urn:rdmi-probe:schema:symbols";
/// The version of that schema.
inline constexpr const char* kSymbolsSchemaVersion = "1.3.0";

/// The whole `rdmi-probe symbols --json` document, as text (json::dump's format).
std::string symbols_document(const SymbolsFacts& facts, const RunInfo& run);

/// symbols_document() handed to `sink` in pieces of about 64 KiB, never held whole: a
/// 100k-symbol document is 57 MB of text. False when the sink refused a piece.
bool write_symbols_document(const SymbolsFacts& facts, const RunInfo& run,
                            const DocumentSink& sink);

}  // namespace rdmi::json
