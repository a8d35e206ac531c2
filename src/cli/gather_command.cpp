// `rdmi-probe gather --output FILE.tar.gz`: the report's probes run through recorders, and
// what they read and asked becomes a bundle that `--root FILE.tar.gz` replays.
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "build_info.hpp"
#include "bundle/gather.hpp"
#include "cli/command.hpp"
#include "cli/error_document.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
#include "cli/run_time.hpp"
#include "model/registry.hpp"
#include "os/output_file.hpp"
#include "os/recording_env.hpp"
#include "os/recording_fs.hpp"
#include "report/json_report.hpp"
#include "report/terminal_text.hpp"
#include "text/shell_word.hpp"

namespace rdmi::cli {
namespace {

// The archive's time stamps: SOURCE_DATE_EPOCH when set (reproducible bundles), else now.
long long archive_mtime(const Env& env) {
    if (auto pinned = source_date_epoch(env)) return *pinned;
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Quiet shows only the warnings: files skipped and read errors, with the bundle they concern.
std::string summary_text(const std::string& output, const nlohmann::ordered_json& manifest,
                         std::size_t archive_size, bool quiet) {
    const std::string warnings =
        "  skipped: " + std::to_string(manifest["skipped"].size()) +
        ", read errors recorded: " + std::to_string(manifest["errors"].size()) + "\n";
    if (quiet) {
        if (manifest["skipped"].empty() && manifest["errors"].empty()) return {};
        return "bundle: " + output + "\n" + warnings;
    }
    return "bundle: " + output + "\n" + "  files: " + std::to_string(manifest["files"].size()) +
           " (" + std::to_string(manifest["content_bytes"].get<std::uint64_t>()) +
           " bytes of contents, " + std::to_string(archive_size) + " bytes compressed)\n" +
           warnings +
           "  live answers captured: " + (manifest["live"].get<bool>() ? "yes" : "no (--root)") +
           ", redacted: " + (manifest["redaction"]["applied"].get<bool>() ? "yes" : "no") + "\n" +
           // Pasted into a shell like every command the probe suggests: one word, whatever
           // the path holds.
           "  replay: rdmi-probe --root " + shell_word(output) + "\n";
}

class GatherCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "gather"; }
    [[nodiscard]] std::string_view summary() const override {
        return "support bundle (--output FILE.tar.gz) of what the probe read and the live "
               "answers; replay it with --root FILE.tar.gz";
    }
    void add_options(CLI::App& sub) override { add_modelled(sub, name(), "--redact", redact_); }

    int run(const Session& session) override {
        const std::string& output = session.options().output;
        if (output.empty()) return session.output().fail("gather needs --output FILE.tar.gz");
        const RecordingFs recorder(session.fs());
        const RecordingEnv env(session.probe_env());
        const RecordingAnswers answers(session.answers());
        Facts report;
        collect(session.probe_context(recorder.fs(), env, answers), kReportProbes, report, {},
                OnProbeError::record);
        report.run = session.run_info();

        bundle::BundleInfo info;
        info.tool_version = build_info::kVersion;
        info.generated_at = report.run.generated_at;
        info.root = session.fs().root();
        info.live = session.fs().is_live() || session.answers().captured();
        info.redacted = redact_;
        auto gathered = bundle::gather_bundle(
            bundle::Recorded{recorder, env, answers, json::dump(json::report(report)),
                             session.options().doca_prefix},
            info, archive_mtime(session.env()));
        if (!gathered) {
            // --output names the tar.gz: the JSON error document goes to stdout, where the
            // manifest would have gone, never into a file that claims to be a bundle.
            session.log().error("{}", gathered.gap().message);
            if (session.options().json) {
                (void)session.output().emit(
                    {error_document(gathered.gap().message, kExitUsage), Reader::machine},
                    Destination::standard_output);
            }
            return kExitUsage;
        }
        // A new bundle is 0600: it holds copies of files only root may have been able to read.
        if (auto written = session.output().emit({gathered->archive, Reader::owner}); !written) {
            // emit() has put the error document on stdout in --json mode already.
            session.log().error("{}", written.gap().message);
            return kExitUsage;
        }
        // `--output /dev/stdout`: the bundle is the document; a summary would corrupt it.
        if (is_stdout_file(output)) return kExitOk;
        // A human summary is escaped for the terminal on its way (Reader::human).
        const std::string summary =
            session.options().json
                ? gathered->manifest.dump(2, ' ', false,
                                          nlohmann::ordered_json::error_handler_t::replace) +
                      "\n"
                : summary_text(output, gathered->manifest, gathered->archive.size(),
                               session.style().verbosity < 0);
        if (auto shown = session.output().emit(summary, Destination::standard_output); !shown) {
            session.log().error("{}", shown.gap().message);
            return kExitUsage;
        }
        return kExitOk;
    }

  private:
    bool redact_ = false;
};

}  // namespace

std::unique_ptr<Command> make_gather_command() {
    return std::make_unique<GatherCommand>();
}

}  // namespace rdmi::cli
