// The finding catalog: every check id the program can emit, what it means and how to fix it.
// A Check's id is a FindingId, and a FindingId can only be made from a catalog entry, so an id
// that is not catalogued cannot be emitted. The entries here are the ones several parts share
// (and those of the probes that predate the registry's rows); a probe may instead declare its
// own entries next to its facts, and its registry row lists them (src/model/facts.hpp), so that
// adding a probe does not edit this file. check_catalog() (src/model/registry.hpp) is the whole.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/purpose.hpp"

namespace rdmi {

/// One catalogued finding. The order is the catalog's (and docs/checks.md's) order.
enum class Finding : std::uint8_t {
    // install probe
    doca_prefix,
    module,
    module_requires,
    rdmi_stack_versions,
    contract_versions,
    doca_version_files,
    rdmi_headers,
    library,
    rdmi_samples,
    dpacc,
    doca_caps,
    // devices probe
    rdmi_dpa_device,
    driver_mlx5_core,
    driver_mlx5_ib,
    uverbs_access,
    verbs_devices,
    doca_devices,
    hugepages,
    // symbols probe, as the report names it (doca-rdmi)
    rdmi_symbols_exported,
    rdmi_symbols_stability,
    rdmi_symbols_agreement,
    rdmi_loader_path,
    rdmi_symbols_runtime,
    // version-matrix and environment probes; the registry rows' own entries come next
    version_matrix,
    env_ld_preload,
    env_ld_library_path,
    // a probe's own failure
    probe_error,
    // symbols subcommand (any module or library)
    symbols_exported,
    symbols_stability,
    symbols_agreement,
    loader_path,
    symbols_runtime,
    app_resolves,
    app_experimental,
    // loopback subcommand
    dpa_loopback,
    // check subcommand (the CI gate)
    min_version,
    max_version,
    exact_version,
    consistent_versions,
    symbol,
    stable,
    device,
    dpa,
    port_active,
};

/// A catalog entry. `id` is the check id, or a pattern with one `<placeholder>`
/// ("module-<name>") for ids that name a module, symbol or probe.
struct FindingInfo {
    std::string_view id;
    std::string_view emitted_by;  ///< the command (and probe or option) that emits it
    std::string_view meaning;     ///< one line: what the check answers
    std::string_view fix;         ///< how to fix a failure or skip; empty when never judged
    /// The questions the check answers: run (an installed application can run here), build
    /// (one can be built here) or both; never none. docs/report.md, "Run and build", gives the
    /// rule.
    Purposes purposes;
};

/// The entries of enum Finding, in its order (without the registry rows' own entries).
std::span<const FindingInfo* const> finding_catalog();

/// The entry of `finding`.
const FindingInfo& finding_info(Finding finding);

/// The entry of `catalog` whose id is `id` or whose pattern matches it (the most specific
/// pattern wins: "module-doca-dpa-requires" is module-<name>-requires); nullptr when none does.
const FindingInfo* find_finding(std::span<const FindingInfo* const> catalog, std::string_view id);

/// Whether an entry's id is a pattern ("library-<module>").
bool is_pattern(const FindingInfo& info);

/// A check id, made only from the catalog.
class FindingId {
  public:
    /// The id of an entry with a fixed id. Deliberately implicit: `Check{Finding::dpa, ...}`
    /// reads as what it is. Throws std::logic_error for a pattern entry (a programming error).
    FindingId(const FindingInfo& info);  // NOLINT(google-explicit-constructor)
    FindingId(Finding finding);          // NOLINT(google-explicit-constructor)
    /// The id of a pattern entry with its placeholder filled ("module-" + "doca-dpa").
    /// Throws std::logic_error for a fixed entry or an empty parameter.
    FindingId(const FindingInfo& info, std::string_view parameter);
    FindingId(Finding finding, std::string_view parameter);

    /// The catalog entry the id was made from.
    [[nodiscard]] const FindingInfo& info() const { return *info_; }
    /// Whether the id was made from `finding`'s entry.
    [[nodiscard]] bool is(Finding finding) const { return info_ == &finding_info(finding); }
    [[nodiscard]] const std::string& str() const { return text_; }

    friend bool operator==(const FindingId& a, const FindingId& b) { return a.text_ == b.text_; }
    friend bool operator==(const FindingId& a, std::string_view b) { return a.text_ == b; }

  private:
    const FindingInfo* info_;
    std::string text_;
};

}  // namespace rdmi
