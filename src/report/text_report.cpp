// Human summary of the full report.
#include "report/text_report.hpp"

#include <fmt/format.h>

#include <utility>

#include "build_info.hpp"
#include "core/fix_plan.hpp"
#include "model/registry.hpp"
#include "probes/devices/device_choice.hpp"
#include "report/devices_text.hpp"
#include "report/terminal_text.hpp"
#include "report/text_device_block.hpp"

namespace rdmi::text {
namespace {

std::string install_facts(const InstallFacts& facts) {
    std::string out = "DOCA prefix: " + terminal_safe(*facts.prefix.value) + " (" +
                      terminal_safe(facts.prefix.source.kind) + ": " +
                      terminal_safe(facts.prefix.source.ref) + ")\n";
    out += "pkg-config search path:";
    for (const auto& dir : facts.search_path) out += " " + terminal_safe(dir);
    out += "\n";
    for (const auto& module : facts.doca_modules) {
        out += "  " + terminal_safe(module.name) + " " +
               (module.version.empty() ? "?" : terminal_safe(module.version)) +
               (module.on_search_path ? "" : " (not on the search path)") + "\n";
    }
    return out;
}

// The title's end: which question a `report --for` run answers.
std::string readiness_question(Purposes wanted) {
    if (wanted == Purposes::run) return ", for run only (can an installed application run?)";
    if (wanted == Purposes::build)
        return ", for build only (can an application and its DPA kernels be built?)";
    return "";
}

// The two questions a plain report answers, each with the command that answers it alone (its
// exit code is the verdict a fleet or a CI job uses).
std::string readiness_lines(const Facts& report) {
    std::string out;
    const std::pair<Purposes, std::string_view> questions[] = {
        {Purposes::run, "Run an installed RDMI application here"},
        {Purposes::build, "Build an RDMI application and its DPA kernels here"},
    };
    for (const auto& [purpose, question] : questions) {
        out += fmt::format("{}: {} (report --for {})\n", question,
                           ready_for(report, purpose) ? "ready" : "not ready", for_name(purpose));
    }
    return out;
}

}  // namespace

std::string report(const TextStyle& style, const Facts& report) {
    const std::vector<Check> checks = report_checks(report);
    // Quiet is failures and warnings only, nothing around them: a healthy host prints nothing.
    if (style.verbosity < 0) return render_checks(style, checks, nullptr, PurposeTag::shown);
    std::string out =
        std::string(build_info::kToolName) + " " + build_info::kVersion + ": DOCA RDMI readiness";
    if (!report.run.live) out += " of root " + terminal_safe(report.run.root);
    out += readiness_question(report.run.for_purposes);
    out += "\n\n";
    if (style.verbosity > 0 && report.install) out += install_facts(*report.install) + "\n";
    if (report.devices) out += devices(style, *report.devices);
    // -d/--device: each named function's key/value block (the quiet report has none).
    if (style.verbosity >= 0 && report.device_scope) out += device_blocks(report);
    // Quiet prints no plan: its fix lines then carry the text.
    const std::vector<FixStep> steps = plan_fixes(checks);
    const bool plan_printed = style.verbosity >= 0 && !steps.empty();
    out += render_checks(style, checks, plan_printed ? &steps : nullptr, PurposeTag::shown);
    if (style.verbosity >= 0 && report.devices) {
        // The reason names sysfs entries (functions, rdma devices, port states): escaped, so a
        // line feed in a device name cannot start a line of its own.
        const DeviceChoice choice = recommend_device(*report.devices);
        out += "\n" +
               wrap(style,
                    "Recommended device for an RDMI DPA workload: " +
                        terminal_safe(choice.function ? choice.reason
                                                      : "none (" + choice.reason + ")"),
                    0, 4) +
               "\n";
    }
    if (plan_printed) {
        out += "\nWhat to do (in this order):\n";
        int number = 0;
        for (const auto& step : steps) {
            std::string ids;
            for (const auto& id : step.resolves) ids += (ids.empty() ? "" : ", ") + id;
            // An action carries probed text (paths, module names) and is often a command to
            // paste: escaped like a check's fix, and not wrapped here; only a line past the
            // terminal's width is continued, under the action (text/fit_width.hpp).
            out +=
                fmt::format("  {}. {}\n", ++number, terminal_safe(step.action)) +
                // The purposes before the list, so that they do not read as the last id's.
                wrap(style,
                     "     resolves (" + purposes_text(step.purposes) + "): " + terminal_safe(ids),
                     0, 15) +
                "\n";
        }
    }
    if (style.verbosity >= 0) {
        const std::string timing = fmt::format(" in {:.1f} ms", report.run.duration_ms);
        std::string verdict = render_verdict(style, checks);
        verdict.insert(verdict.size() - 1, timing);
        out += "\n" + verdict;
        if (report.run.for_purposes == Purposes::both) out += readiness_lines(report);
    }
    return out;
}

}  // namespace rdmi::text
