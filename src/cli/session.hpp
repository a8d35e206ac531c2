// Session: the parsed global options and the seams built from them, shared by every subcommand.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/document_output.hpp"
#include "cli/watchdog.hpp"
#include "context/context.hpp"
#include "core/deadline.hpp"
#include "core/progress.hpp"
#include "model/facts.hpp"
#include "os/env.hpp"
#include "os/live_answers.hpp"
#include "os/output_file.hpp"
#include "os/private_dir.hpp"
#include "os/rooted_fs.hpp"
#include "report/text_style.hpp"

namespace spdlog {
class logger;
}

namespace rdmi::cli {

/// The global options (docs/options.md), as parsed.
struct GlobalOptions {
    bool json = false;
    std::string output;
    std::string root = "/";
    bool root_given = false;  ///< --root was on the command line: static, whatever it names
    std::string doca_prefix;
    double timeout_s = 10.0;
    /// How much longer than --timeout the run may last: the command's own wait (check --wait),
    /// which the run's deadline and its watchdog cover; each evaluation keeps --timeout.
    std::chrono::milliseconds wait{0};
    int verbose = 0;
    bool quiet = false;
    std::string color = "auto";
    bool allow_untrusted_libs = false;
    bool allow_foreign_links = false;  ///< follow links the owner rule refuses, each logged
    bool no_landlock = false;  ///< --no-landlock: the contained children run without Landlock
    /// --no-syscall-filter: the contained children run without the system call filter
    bool no_syscall_filter = false;
    /// --field: print only the values at these JSON pointers (and --json is implied)
    std::vector<std::string> fields;
};

/// What a subcommand runs with.
class Session {
  public:
    /// Builds the seams; a Gap when --root cannot be opened.
    static Result<std::unique_ptr<Session>> open(const GlobalOptions& options);

    [[nodiscard]] const GlobalOptions& options() const { return options_; }
    [[nodiscard]] const Fs& fs() const { return *fs_; }
    [[nodiscard]] const Env& env() const { return env_; }
    /// The environment the probes see: this process's, or a replayed bundle's.
    [[nodiscard]] const Env& probe_env() const {
        if (probe_env_) return *probe_env_;
        return env_;
    }
    /// Where live-only answers come from: this machine, or a replayed bundle's capture.
    [[nodiscard]] const LiveAnswers& answers() const {
        return answers_ ? *answers_ : LiveAnswers::direct();
    }
    /// True when --root is a bundle (a directory with a manifest, or a .tar.gz).
    [[nodiscard]] bool replaying() const { return replaying_; }
    /// True when the live-only facts are there: the live root, or a live bundle's capture.
    [[nodiscard]] bool live() const { return fs_->is_live() || answers().captured(); }
    [[nodiscard]] spdlog::logger& log() const { return *log_; }
    /// Which symbolic links this run follows (os/link_rule.hpp): the owner rule when the
    /// process reads beyond its user's rights; with --allow-foreign-links a link it refuses is
    /// followed and logged (once per link) at warn level. Also for the paths the user names.
    [[nodiscard]] const LinkRule& link_rule() const { return link_rule_; }
    [[nodiscard]] const text::TextStyle& style() const { return style_; }
    [[nodiscard]] const Deadline& deadline() const { return deadline_; }
    /// The probe context for this run.
    [[nodiscard]] ProbeContext probe_context() const;
    /// The probe context with other seams (gather's recorders).
    [[nodiscard]] ProbeContext probe_context(const Fs& fs, const Env& env,
                                             const LiveAnswers& answers) const;

    /// Facts about this run for a document: root, live, time, timeout, and the time since the
    /// run began (a bundle archive's extraction included).
    [[nodiscard]] RunInfo run_info() const;

    /// Where the run's one document goes, and how the run ends (cli/document_output.hpp).
    [[nodiscard]] const DocumentOutput& output() const { return *output_; }

    /// The run's facts are collected: its worker child (vendor code) is ended now, without
    /// waiting, so that it exits while the document is built. A later call starts a new one.
    void release_worker() const { worker_->release(); }

    /// --timeout as a duration: the bound on the run and on each external call.
    [[nodiscard]] std::chrono::milliseconds timeout() const;

  private:
    /// When the run began, its deadline and its watchdog: made before a bundle archive is
    /// extracted, so that the extraction is inside the run's --timeout.
    struct RunClock {
        std::chrono::steady_clock::time_point started;
        Deadline deadline;
        std::unique_ptr<Watchdog> watchdog;
    };
    Session(GlobalOptions options, std::shared_ptr<spdlog::logger> log, LinkRule link_rule,
            RunClock clock);

    GlobalOptions options_;
    /// A bundle archive given to --root, extracted; removed last (the Fs below reads it).
    std::unique_ptr<PrivateDir> extracted_;
    /// The run's private directory for probes (an rpm database's copy): the extraction's, or
    /// one made on first use; destroyed before `extracted_`.
    std::shared_ptr<RunPrivateDir> private_dir_ =
        std::make_shared<RunPrivateDir>(default_private_parent());
    std::unique_ptr<Fs> fs_;
    ProcessEnv env_;
    std::unique_ptr<Env> probe_env_;        ///< a bundle's environment, or null: env_
    std::unique_ptr<LiveAnswers> answers_;  ///< a bundle's captured answers, or null: direct
    bool replaying_ = false;
    std::shared_ptr<spdlog::logger> log_;
    LinkRule link_rule_;
    text::TextStyle style_;
    std::chrono::steady_clock::time_point started_;
    Deadline deadline_;
    std::unique_ptr<Progress> progress_;  ///< the terminal status line, or null: none
    /// The run's one child for vendor code, shared by every probe context of the run.
    std::shared_ptr<IsolatedWorker> worker_ = std::make_shared<IsolatedWorker>();
    /// The run's trust checks share what they learn of the host's files.
    std::shared_ptr<TrustCache> trust_cache_ = std::make_shared<TrustCache>();
    /// The run's one lazily opened package database (every context of the run shares it).
    std::shared_ptr<PackageDatabase> packages_ = std::make_shared<PackageDatabase>();
    /// Ends the run when it overruns --timeout (plus kWatchdogGrace); destroyed after output_.
    std::unique_ptr<Watchdog> watchdog_;
    /// Writes the document: uses progress_ and watchdog_, so it is destroyed first.
    std::unique_ptr<DocumentOutput> output_;
};

}  // namespace rdmi::cli
