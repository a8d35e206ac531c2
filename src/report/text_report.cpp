// Human summary of the full report.
#include "report/text_report.hpp"

#include <fmt/format.h>

#include "build_info.hpp"
#include "report/devices_text.hpp"
#include "report/terminal_text.hpp"

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

}  // namespace

std::string report(const TextStyle& style, const Report& report) {
    std::string out =
        std::string(build_info::kToolName) + " " + build_info::kVersion + ": DOCA RDMI readiness";
    if (!report.run.live) out += " of root " + terminal_safe(report.run.root);
    out += "\n\n";
    if (style.verbosity > 0 && report.install) out += install_facts(*report.install) + "\n";
    if (report.devices) out += devices(style, *report.devices);
    out += render_checks(style, report.checks);
    if (style.verbosity >= 0) {
        const std::string timing = fmt::format(" in {:.1f} ms", report.run.duration_ms);
        std::string verdict = render_verdict(style, report.checks);
        verdict.insert(verdict.size() - 1, timing);
        out += "\n" + verdict;
    }
    return out;
}

}  // namespace rdmi::text
