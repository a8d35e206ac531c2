// fit_to_limits: a gathered tree cut to what a replay accepts (limits.hpp), with what was cut
// listed in the tree's `skipped`, so that gather never writes a bundle that will not replay.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "bundle/bundle_tree.hpp"
#include "bundle/limits.hpp"

namespace rdmi::bundle {

/// What the tree may take of the archive and of its manifest once the bundle's own entries and
/// documents are counted.
struct FitBudget {
    std::uint64_t entries = 0;         ///< archive entries for the tree's objects
    std::uint64_t content_bytes = 0;   ///< bytes of stored file contents
    std::uint64_t manifest_bytes = 0;  ///< manifest text for the files, skipped and errors lists
};

/// Cuts `tree` to `limits` and `budget`. Stored in order of use, until a limit is reached:
/// the read errors (up to a quarter of the manifest's room), then directories, links and files
/// with contents, then placeholders (each group in path order). An object whose name is too
/// long or too deep, or whose link text is too long, is left out with everything below it; a
/// file whose contents do not fit is kept as a placeholder. Every object left out, and every
/// file kept as a placeholder, is in `tree.skipped` with the limit and why; when those records
/// themselves would pass their share of the manifest (an eighth, at most 1 MiB), the rest are
/// counted in one record at the deepest directory above all of them. Read errors that do not
/// fit are counted in `tree.failures_dropped`. `tree.content_bytes` is recomputed.
void fit_to_limits(Tree& tree, const BundleLimits& limits, const FitBudget& budget);

/// The bytes `record` adds to the manifest, as an element of one of its top-level arrays
/// (`dump(2)` at that indentation, with the separator).
std::uint64_t manifest_record_bytes(const nlohmann::ordered_json& record);

}  // namespace rdmi::bundle
