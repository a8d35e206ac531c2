// The finding catalog's entry type: every check id the program can emit, what it means and how
// to fix it. A Check's id is a FindingId, and a FindingId can only be made from a catalog entry,
// so an id that is not catalogued cannot be emitted. The entries are declared beside the code
// that emits them, in namespace rdmi::finding: a probe's in its own header (its registry row
// lists them, src/model/facts.hpp), a command without a row in its own table (the gate's,
// src/check/gate_findings.hpp; the `symbols` and `loopback` commands'). check_catalog()
// (src/check/check_catalog.hpp) gathers them all, in one order.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/purpose.hpp"

namespace rdmi {

/// A catalog entry. `id` is the check id, or a pattern with one `<placeholder>`
/// ("module-<name>") for ids that name a module, symbol or probe.
struct FindingInfo {
    std::string_view id;
    std::string_view emitted_by;  ///< the command (and probe or option) that emits it
    std::string_view meaning;     ///< one line: what the check answers
    std::string_view fix;         ///< how to fix a failure or skip; empty when never judged
    /// The questions the check answers: run (an installed application can run here), build
    /// (one can be built here) or both; never none. docs/report.md, "Run and build", gives
    /// the rule.
    Purposes purposes;
};

/// The entry of `catalog` whose id is `id` or whose pattern matches it (the most specific
/// pattern wins: "module-doca-dpa-requires" is module-<name>-requires); nullptr when none does.
const FindingInfo* find_finding(std::span<const FindingInfo* const> catalog, std::string_view id);

/// Whether an entry's id is a pattern ("library-<module>").
bool is_pattern(const FindingInfo& info);

/// A check id, made only from the catalog.
class FindingId {
  public:
    /// The id of an entry with a fixed id. Deliberately implicit: `Check{finding::dpa, ...}`
    /// reads as what it is. Throws std::logic_error for a pattern entry (a programming error).
    FindingId(const FindingInfo& info);  // NOLINT(google-explicit-constructor)
    /// The id of a pattern entry with its placeholder filled ("module-" + "doca-dpa").
    /// Throws std::logic_error for a fixed entry or an empty parameter.
    FindingId(const FindingInfo& info, std::string_view parameter);

    /// The catalog entry the id was made from.
    [[nodiscard]] const FindingInfo& info() const { return *info_; }
    /// Whether the id was made from `entry`.
    [[nodiscard]] bool is(const FindingInfo& entry) const { return info_ == &entry; }
    [[nodiscard]] const std::string& str() const { return text_; }

    friend bool operator==(const FindingId& a, const FindingId& b) { return a.text_ == b.text_; }
    friend bool operator==(const FindingId& a, std::string_view b) { return a.text_ == b; }

  private:
    const FindingInfo* info_;
    std::string text_;
};

}  // namespace rdmi
