// Field-by-field comparison of two saved documents of the same kind, and its outputs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "contract/document.hpp"
#include "report/text_style.hpp"

namespace rdmi::diff {

using contract::Json;

/// What happened to one field between A and B.
enum class ChangeKind { added, removed, changed };

/// "added", "removed" or "changed".
std::string_view to_string(ChangeKind kind);

/// One difference. Its pointers are RFC 6901 pointers that resolve in the document they name;
/// array elements matched by an identity field sit at their own index on each side, so a
/// changed member of a moved element has two pointers. The label names such an element by its
/// identity for people ("libraries[pkg_config_name=doca-rdma].installed").
struct Change {
    std::string pointer;  ///< into A when A has the value (removed, changed), else into B
    std::optional<std::string> b_pointer;  ///< into B, for changed (equal to pointer unless moved)
    std::string label;                     ///< the human name; never a pointer
    bool named = false;  ///< the label names an array element by its identity, not its index
    ChangeKind kind = ChangeKind::changed;
    std::optional<Json> a;  ///< absent for added
    std::optional<Json> b;  ///< absent for removed
};

/// What to compare.
struct Options {
    bool all = false;  ///< compare x_rdmi_probe and the run-dependent fields too
};

/// The fields ignored unless Options::all: the top-level x_rdmi_probe, /run (when, how long,
/// which root path) and /tool/version, and any member named generated_at, snapshot_at or
/// duration_ms (they differ on every run, or between two probes of one host); in a `kind` "report",
/// also each fix-plan step's number (steps are matched by id, so a step that only moved up is
/// unchanged).
std::vector<std::string> ignored_fields(const Options& options, std::string_view kind = {});

/// Every difference between two documents, in document order (A's, then what only B has).
std::vector<Change> compare(const Json& a, const Json& b, const Options& options);

/// For two symbol audits: exported in B but not A, exported in A but not B, experimental in A
/// and stable in B, newly deprecated, and any other stability change. Names sorted.
struct SymbolsView {
    std::vector<std::string> added;
    std::vector<std::string> removed;
    std::vector<std::string> promoted;
    std::vector<std::string> deprecated;
    std::vector<std::string> changed;
};

/// The symbol-level view of two symbols documents (their /symbols arrays).
SymbolsView symbols_view(const Json& a, const Json& b);

/// {"added": [...], "removed": [...], "promoted": [...], "deprecated": [...], "changed": [...]}
Json to_json(const SymbolsView& view);

/// The inputs and outcome, for the outputs.
struct Outcome {
    std::string kind;  ///< the document kind both inputs are
    std::string a_path;
    std::string b_path;
    std::optional<std::string> a_document;  ///< x_rdmi_probe.document when present
    std::optional<std::string> b_document;
    std::vector<std::string> ignored;
    std::vector<Change> changes;
    std::optional<SymbolsView> symbols;  ///< for two symbol audits
};

/// The diff document (schemas/rdmi-probe-diff.schema.json).
Json to_json(const Outcome& outcome);

/// The human rendering: one line per change ("~ /side: \"host\" -> \"dpu\"") and a verdict.
std::string to_text(const text::TextStyle& style, const Outcome& outcome);

}  // namespace rdmi::diff
