// Symbols emitters: pure functions of SymbolsFacts.
#include "report/symbols_json.hpp"

#include "build_info.hpp"
#include "probes/symbols/symbols_json.hpp"
#include "report/json_report.hpp"
#include "report/verdict_writer.hpp"

#include <cstring>
#include <memory>

namespace rdmi::json {

bool write_symbols_document(const SymbolsFacts& facts, const RunInfo& run,
                            const DocumentSink& sink) {
    Json document = object({{"schema", kSymbolsSchemaId},
                            {"schema_version", kSymbolsSchemaVersion},
                            {"tool", tool()},
                            {"run", run_info(run)},
                            {"result", to_string(overall_status(facts.checks))},
                            {"summary", status_counts(count_statuses(facts.checks))},
                            {"checks", checks(facts.checks)},
                            {"target", symbols_target(facts)},
                            {"library", symbols_library(facts)},
                            {"headers", symbols_headers(facts)}},
                           kSymbolsAuditMembers + 2);
    add_symbols_audit_members(document, facts);
    auto& members = document.get_ref<Json::object_t&>();
    members.emplace("symbols", Json::array());
    members.emplace("application", symbols_application(facts));
    // The per-symbol array is written straight into the empty array's place: a library with 100k
    // symbols would otherwise hold a DOM ten times the size of its text.
    const std::string text = dump(document);
    constexpr std::string_view kSlot = "\n  \"symbols\": []";
    const auto slot = text.find(kSlot);
    if (slot == std::string::npos || facts.audit.symbols.empty()) return sink(text);
    const auto array_at = slot + kSlot.size() - 2;
    const std::string_view whole(text);
    if (!sink(whole.substr(0, array_at))) return false;
    // Verdicts are written into one buffer handed to the sink whenever it holds about kPiece
    // bytes: each is written in place, never zero-filled first or copied again.
    constexpr std::size_t kPiece = std::size_t{64} << 10U;
    constexpr std::size_t kSeparator = 8;  // "[" or ",", a newline, four spaces
    VerdictWriter writer(4);               // an element of a top-level array
    std::size_t capacity = 2 * kPiece;
    auto buffer = std::make_unique_for_overwrite<char[]>(capacity);
    char* at = buffer.get();
    bool first = true;
    for (const auto& v : facts.audit.symbols) {
        const std::size_t need = kSeparator + writer.bound(v);
        if (static_cast<std::size_t>(at - buffer.get()) + need > capacity) {
            if (at != buffer.get() &&
                !sink(std::string_view(buffer.get(), static_cast<std::size_t>(at - buffer.get()))))
                return false;
            at = buffer.get();
            if (need > capacity) {  // a verdict larger than the buffer (a huge hostile name)
                capacity = need;
                buffer = std::make_unique_for_overwrite<char[]>(capacity);
                at = buffer.get();
            }
        }
        const std::string_view separator = first ? "[\n    " : ",\n    ";
        first = false;
        std::memcpy(at, separator.data(), separator.size());
        at = writer.write(at + separator.size(), v);
        if (static_cast<std::size_t>(at - buffer.get()) >= kPiece) {
            if (!sink(std::string_view(buffer.get(), static_cast<std::size_t>(at - buffer.get()))))
                return false;
            at = buffer.get();
        }
    }
    std::string out(buffer.get(), static_cast<std::size_t>(at - buffer.get()));
    out += "\n  ]";
    out.append(whole.substr(array_at + 2));
    return sink(out);
}

std::string symbols_document(const SymbolsFacts& facts, const RunInfo& run) {
    std::string out;
    // About 570 bytes per verdict with two pieces of evidence: reserving enough up front avoids
    // copying tens of megabytes when the string grows.
    out.reserve(8192 + facts.audit.symbols.size() * 640);
    write_symbols_document(facts, run, [&out](std::string_view piece) {
        out.append(piece);
        return true;
    });
    return out;
}

}  // namespace rdmi::json
