// The diff document and its human rendering.
#include <array>

#include "build_info.hpp"
#include "contract/kinds.hpp"
#include "json/exact_number.hpp"
#include "json/json_common.hpp"
#include "report/diff_document.hpp"
#include "report/terminal_text.hpp"

namespace rdmi::diff {
namespace {

Json input(const std::string& path, const std::optional<std::string>& document) {
    return json::object({{"path", path}, {"document", document ? Json(*document) : Json(nullptr)}});
}

// Scalars (check messages included) are shown whole; only objects and arrays are shortened.
std::string short_value(const Json& value) {
    if (auto digits = exact_number_text(value)) return *digits;
    // The digits the double stands for (2^64 is 18446744073709551616, not 1.8446744073709552e+19
    // beside a kept 18446744073709551617).
    if (value.is_number_float()) return shortest_decimal(value.get<double>());
    std::string text =
        with_plain_numbers(value).dump(-1, ' ', false, Json::error_handler_t::replace);
    constexpr std::size_t kMax = 120;
    if (value.is_structured() && text.size() > kMax) {
        text.resize(kMax - 3);
        text += "...";
    }
    return text;
}

// Which cause a change belongs to. A DOCA version that moved explains the check verdicts it
// flips, so versions are listed first, then the checks and verdicts, then everything else.
enum class Cause { versions, checks, other };

Cause cause_of(const std::string& pointer) {
    // DOCA's versions, not the kernel's or the firmware's: /version/..., /doca_version, the
    // report's stack_versions/contract_versions/consistency, a module's or library's /version.
    auto has = [&](std::string_view part) { return pointer.find(part) != std::string::npos; };
    // "/version" itself or below it: "/version_matrix" is the capability table, not a version.
    if (pointer == "/version" || pointer.starts_with("/version/") || has("/doca_version") ||
        has("stack_versions") || has("contract_versions") || has("/consistency") ||
        pointer.ends_with("/version") || has("/library_path") ||
        pointer.starts_with("/x_rdmi_probe/libraries"))
        return Cause::versions;
    if (pointer.starts_with("/checks") || pointer.starts_with("/summary") || pointer == "/result" ||
        pointer.starts_with("/fix_plan"))
        return Cause::checks;
    return Cause::other;
}

constexpr std::array<std::pair<Cause, const char*>, 3> kCauses = {{
    {Cause::versions, "DOCA versions and libraries"},
    {Cause::checks, "check verdicts (often the effect of a version change)"},
    {Cause::other, "everything else"},
}};

// Each group lists its changes by their index in `changes`: a pointer alone would not say
// which document it points into.
Json groups(const std::vector<Change>& changes) {
    Json out = Json::array();
    for (const auto& [cause, title] : kCauses) {
        Json members = Json::array();
        for (std::size_t i = 0; i < changes.size(); ++i) {
            if (cause_of(changes[i].pointer) == cause) members.push_back(i);
        }
        if (!members.empty())
            out.push_back(json::object({{"cause", title}, {"changes", std::move(members)}}));
    }
    return out;
}

// "/a/1/x" for a change whose pointer holds in both documents; "A /a/1/x, B /a/2/x" for a
// member of an element that sits elsewhere in B.
std::string where(const Change& change) {
    if (change.b_pointer && *change.b_pointer != change.pointer)
        return "A " + change.pointer + ", B " + *change.b_pointer;
    return change.pointer;
}

}  // namespace

Json to_json(const Outcome& outcome) {
    Json changes = Json::array();
    for (const auto& c : outcome.changes) {
        Json entry = json::object({{"pointer", c.pointer}, {"change", to_string(c.kind)}});
        if (c.b_pointer) entry["b_pointer"] = *c.b_pointer;
        entry["label"] = c.label;
        // JSON has no type for a number no double holds: the nearest double stands for it (the
        // text output shows its digits).
        if (c.a) entry["a"] = with_plain_numbers(*c.a);
        if (c.b) entry["b"] = with_plain_numbers(*c.b);
        changes.push_back(std::move(entry));
    }
    return json::object(
        {{"schema", contract::kDiffSchema},
         {"schema_version", contract::kDiffSchemaVersion},
         {"tool", {{"name", build_info::kToolName}, {"version", build_info::kVersion}}},
         {"kind", outcome.kind},
         {"a", input(outcome.a_path, outcome.a_document)},
         {"b", input(outcome.b_path, outcome.b_document)},
         {"equal", outcome.changes.empty()},
         {"ignored", outcome.ignored},
         {"changes", std::move(changes)},
         {"groups", groups(outcome.changes)},
         {"symbols", outcome.symbols ? to_json(*outcome.symbols) : Json(nullptr)}});
}

std::string to_text(const text::TextStyle& style, const Outcome& outcome) {
    // Quiet: the differences only (a diff's failures), nothing when the documents are equal.
    const bool quiet = style.verbosity < 0;
    std::string out;
    if (!quiet) {
        out = "diff of two " + text::terminal_safe(outcome.kind) + " documents";
        if (outcome.a_document && outcome.b_document)
            out += " (" + text::terminal_safe(*outcome.a_document) + " vs " +
                   text::terminal_safe(*outcome.b_document) + ")";
        out += "\n  A: " + text::terminal_safe(outcome.a_path) +
               "\n  B: " + text::terminal_safe(outcome.b_path) + "\n\n";
    }
    if (!outcome.changes.empty() && !quiet) {
        out +=
            "Pointers (RFC 6901) of '-' rows are into A, of '+' rows into B, of '~' rows into "
            "both; an element matched by its identity is named by it in parentheses.\n\n";
    }
    for (const auto& [cause, title] : kCauses) {
        bool heading = false;
        for (const auto& c : outcome.changes) {
            if (cause_of(c.pointer) != cause) continue;
            if (!heading) {
                out += std::string(title) + ":\n";
                heading = true;
            }
            const std::string place = where(c) + (c.named ? " (" + c.label + ")" : "");
            std::string row;
            switch (c.kind) {
                case ChangeKind::added:
                    row = "+ " + place + ": " + short_value(*c.b);
                    break;
                case ChangeKind::removed:
                    row = "- " + place + ": " + short_value(*c.a);
                    break;
                case ChangeKind::changed:
                    row = "~ " + place + ": " + short_value(*c.a) + " -> " + short_value(*c.b);
                    break;
            }
            out += text::wrap(style, "  " + text::terminal_safe(row), 0, 6) + "\n";
        }
    }
    if (outcome.symbols) {
        const auto& v = *outcome.symbols;
        auto line = [&](const char* what, const std::vector<std::string>& names) {
            if (names.empty()) return;
            std::string list;
            for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
            out += text::wrap(style,
                              text::terminal_safe(std::string(what) + " (" +
                                                  std::to_string(names.size()) + "): " + list),
                              0, 4) +
                   "\n";
        };
        if (!quiet || !v.added.empty() || !v.removed.empty() || !v.promoted.empty() ||
            !v.deprecated.empty() || !v.changed.empty())
            out += "\nSymbols:\n";
        line("  added", v.added);
        line("  removed", v.removed);
        line("  promoted to stable", v.promoted);
        line("  deprecated", v.deprecated);
        line("  other stability changes", v.changed);
        if (v.added.empty() && v.removed.empty() && v.promoted.empty() && v.deprecated.empty() &&
            v.changed.empty() && !quiet)
            out += "  no symbol added, removed or changed in stability\n";
    }
    if (quiet) return out;
    if (!outcome.changes.empty()) out += "\n";
    out += outcome.changes.empty()
               ? std::string("equal")
               : std::to_string(outcome.changes.size()) +
                     (outcome.changes.size() == 1 ? " difference" : " differences");
    if (!outcome.ignored.empty()) {
        std::string list;
        for (const auto& f : outcome.ignored) list += (list.empty() ? "" : ", ") + f;
        out += " (not compared: " + text::terminal_safe(list) + "; --all compares them)";
    }
    return out + "\n";
}

}  // namespace rdmi::diff
