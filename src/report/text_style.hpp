// How human text is rendered: colour, verbosity, width.
#pragma once

#include <string>
#include <string_view>

#include "core/check.hpp"
#include "core/fix_plan.hpp"

namespace rdmi::text {

/// Rendering settings for the human output.
struct TextStyle {
    bool color = false;
    int verbosity = 0;  ///< -1 quiet (failures and warnings only), 0 normal, 1+ verbose (sources)
    std::size_t width = 80;
};

/// Whether -q shows a check of this status: failures and warnings, in every human output.
bool is_problem(Status status);

/// "PASS", "FAIL", "SKIP" or "INFO": the label every human output shows for a status.
std::string_view status_label(Status status);

/// `text` wrapped in the ANSI colour for `status` when colour is on.
std::string paint(const TextStyle& style, Status status, std::string_view text);

/// Wraps `text` at spaces so that each line fits `style.width`, indenting continuation lines.
std::string wrap(const TextStyle& style, std::string_view text, std::size_t first_column,
                 std::size_t indent);

/// Whether a check's line names the purposes it answers ("dpacc [build]"): the report's do.
enum class PurposeTag : bool { hidden, shown };

/// One check as text: "FAIL  id  message", then "fix:" and (verbose) "from:" lines. A
/// `plan_step` above 0 is the step of the printed fix plan that carries the check's fix: the
/// line says "fix: step N" instead of repeating its text.
std::string render_check(const TextStyle& style, const Check& check, std::size_t plan_step = 0,
                         PurposeTag tag = PurposeTag::hidden);

/// Checks ordered failures first, then skips, passes, info; quiet shows failures and warnings
/// only. `plan`:
/// the fix plan printed after them, whose steps the fix lines point to; nullptr when none is
/// printed (every fix then in full).
std::string render_checks(const TextStyle& style, const std::vector<Check>& checks,
                          const std::vector<FixStep>* plan = nullptr,
                          PurposeTag tag = PurposeTag::hidden);

/// "Result: FAIL (2 failed, 1 skipped, 5 passed, 1 info)".
std::string render_verdict(const TextStyle& style, const std::vector<Check>& checks);

}  // namespace rdmi::text
