// `rdmi-probe [report]`: all probes; the human summary or, with --json, the full report.
#include <CLI/CLI.hpp>

#include <spdlog/spdlog.h>

#include <chrono>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "probes/probe_table.hpp"
#include "report/json_report.hpp"
#include "report/text_report.hpp"

namespace rdmi::cli {
namespace {

class ReportCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "report"; }
    [[nodiscard]] std::string_view summary() const override {
        return "run all probes: human summary, or the full report with --json (default)";
    }
    void add_options(CLI::App& sub) override { (void)sub; }

    int run(const Session& session) override {
        const auto start = std::chrono::steady_clock::now();
        Report report;
        run_probes(session.probe_context(), report);
        report.run = session.run_info(start);
        const std::string document = session.options().json ? json::dump(json::report(report))
                                                            : text::report(session.style(), report);
        return session.finish(document, exit_code_for(overall_status(report.checks)));
    }
};

}  // namespace

std::unique_ptr<Command> make_report_command() {
    return std::make_unique<ReportCommand>();
}

}  // namespace rdmi::cli
