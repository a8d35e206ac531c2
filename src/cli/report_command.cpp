// `rdmi-probe [report]`: all probes; the human summary, the full report (--json or --format
// json), Prometheus metrics for node_exporter's textfile collector (--format prometheus) or a
// Node Feature Discovery feature file (--format nfd).
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.hpp"
#include "cli/device_scope_option.hpp"
#include "cli/error_document.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
#include "cli/run_time.hpp"
#include "core/drop_at_exit.hpp"
#include "model/registry.hpp"
#include "os/fs.hpp"
#include "report/json_report.hpp"
#include "report/nfd_features.hpp"
#include "report/prometheus_report.hpp"
#include "report/text_report.hpp"

namespace rdmi::cli {
namespace {

class ReportCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "report"; }
    [[nodiscard]] std::string_view summary() const override {
        return "run all probes (default): human summary, the full report (--json), Prometheus "
               "metrics or a Node Feature Discovery feature file (--format)";
    }
    void add_options(CLI::App& sub) override {
        add_modelled(sub, name(), "--format", format_);
        add_modelled(sub, name(), "--integrity", integrity_);
        for_option_ = add_modelled(sub, name(), "--for", for_);
        nfd_expiry_option_ = add_modelled(sub, name(), "--nfd-expiry", nfd_expiry_s_);
        add_modelled(sub, name(), "--device", devices_);
    }

    int run(const Session& session) override {
        const bool json = session.options().json;
        // --json with another --format is refused before any command runs (cli/app.cpp).
        if (json) format_ = "json";
        if (for_option_ != nullptr && for_option_->count() > 0 &&
            (format_ == "prometheus" || format_ == "nfd")) {
            return usage_error(session,
                               "report: --for chooses the checks of a text or JSON "
                               "report; --format " +
                                   format_ + " carries every purpose's verdict (give no --for)");
        }
        const bool nfd_expiry = nfd_expiry_option_ != nullptr && nfd_expiry_option_->count() > 0;
        if (nfd_expiry && format_ != "nfd") {
            return usage_error(session,
                               "report: --nfd-expiry writes the expiry directive of a "
                               "Node Feature Discovery feature file; give it with "
                               "--format nfd (the format is " +
                                   format_ + ")");
        }
        if (!devices_.empty() && (format_ == "prometheus" || format_ == "nfd")) {
            return usage_error(session, "report: --format " + format_ +
                                            " carries the host's verdict (a fleet verdict is per "
                                            "host); give no --device");
        }
        warn_unread_name(session);
        Facts report;
        ProbeRequest request;
        if (auto refused =
                scope_to_devices(session, name(), devices_, report, request, OnProbeError::record))
            return *refused;
        collect(session.probe_context(), kReportProbes, report, request, OnProbeError::record);
        if (integrity_) {
            request.integrity = true;
            collect(session.probe_context(), {ProbeId::install_integrity}, report, request,
                    OnProbeError::record);
        }
        session.release_worker();
        report.run = session.run_info();
        report.run.for_purposes = parse_for(for_).value_or(Purposes::both);
        const int exit_code = exit_code_for(overall_status(report_checks(report)));
        if (format_ == "json") {
            json::Json document = json::report(report);
            // Streamed: the text of the document is never held whole.
            const int status =
                session.output().finish(Document::streamed([&](const json::DocumentSink& sink) {
                                            return json::dump_to(document, sink);
                                        }),
                                        exit_code);
            // The run is over: the tree and the facts go with the process.
            drop_at_exit(std::move(document));
            drop_at_exit(std::move(report));
            return status;
        }
        if (format_ == "prometheus")
            return session.output().finish({prometheus::report(report), Reader::daemon}, exit_code);
        if (format_ == "nfd") {
            nfd::FeatureFileOptions options;
            if (nfd_expiry) options.expiry_time = expiry_time(nfd_expiry_s_, report.run);
            return session.output().finish({nfd::features(report, options), Reader::daemon},
                                           exit_code);
        }
        return session.output().finish({text::report(session.style(), report), Reader::human},
                                       exit_code);
    }

  private:
    // The error document goes to stdout, never to --output: that path is meant for one of two
    // formats, and JSON written over a Prometheus textfile or an NFD feature file would make
    // its reader reject the whole file (every rdmi metric, or every label of the node, gone).
    [[nodiscard]] static int usage_error(const Session& session, const std::string& problem) {
        const std::string message = problem + "; --output not written";
        session.log().error("{}", message);
        // --json asked for a document, and gets one even for a usage error; a Prometheus or
        // NFD run's stdout may be its collector's file, so it gets none.
        if (!session.options().json) return kExitUsage;
        const std::string document = error_document(message, kExitUsage);
        std::fwrite(document.data(), 1, document.size(), stdout);  // NOLINT(cert-err33-c)
        std::fflush(stdout);                                       // NOLINT(cert-err33-c)
        return kExitUsage;
    }

    // The run's time (SOURCE_DATE_EPOCH when set, so that a golden is reproducible) plus
    // --nfd-expiry, which the option's check already bounded; past 9999 it is the last second
    // RFC 3339 can write.
    [[nodiscard]] static std::string expiry_time(double nfd_expiry_s, const RunInfo& run) {
        const auto lifetime = std::llround(nfd_expiry_s);
        // generated_at is the session's own iso8601_utc text, so it always reads back; the
        // clock is only the fallback of a fallback.
        const long long start = parse_iso8601_utc(run.generated_at).value_or([] {
            using namespace std::chrono;
            return duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
        }());
        const long long left = kLatestIso8601Seconds - start;
        return iso8601_utc(start + std::min<long long>(lifetime, left));
    }

    // Each reader skips some names in its directory: written there, the document would never be
    // read, and nothing else would say so.
    void warn_unread_name(const Session& session) const {
        const std::string& output = session.options().output;
        if (output.empty()) return;
        const std::string_view name = base_name(output);
        if (format_ == "prometheus" && !name.ends_with(".prom")) {
            session.log().warn(
                "--output {}: node_exporter's textfile collector reads only *.prom files", output);
        } else if (format_ == "nfd" && name.starts_with(".")) {
            session.log().warn(
                "--output {}: Node Feature Discovery skips files whose name "
                "starts with a dot",
                output);
        }
    }

    std::string format_ = "text";
    bool integrity_ = false;
    std::string for_ = "all";
    CLI::Option* for_option_ = nullptr;
    double nfd_expiry_s_ = 0;  ///< --nfd-expiry in seconds (its parser turns "2h" into 7200)
    CLI::Option* nfd_expiry_option_ = nullptr;
    std::vector<std::string> devices_;
};

}  // namespace

std::unique_ptr<Command> make_report_command() {
    return std::make_unique<ReportCommand>();
}

}  // namespace rdmi::cli
