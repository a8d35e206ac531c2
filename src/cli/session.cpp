// Session: the run's seams (the root or bundle opened), logger and colour decision.
#include "cli/session.hpp"

#include <fcntl.h>
#include <spdlog/details/null_mutex.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>

#include "bundle/extract.hpp"
#include "bundle/replay.hpp"
#include "cli/run_time.hpp"
#include "cli/terminal_progress.hpp"
#include "os/terminal_width.hpp"
#include "process/containment.hpp"
#include "report/terminal_text.hpp"

namespace rdmi::cli {
namespace {

bool use_color(const GlobalOptions& options, const Env& env) {
    if (options.color == "always") return true;
    if (options.color == "never" || !options.output.empty() || options.json) return false;
    if (auto no_color = env.get("NO_COLOR"); no_color && !no_color->empty()) return false;
    if (auto term = env.get("TERM"); term && *term == "dumb") return false;
    return ::isatty(STDOUT_FILENO) == 1;
}

// stderr is a terminal too, and log messages carry probed names (paths, devices, versions):
// each message is one line, escaped like the human documents.
class EscapingStderrSink final : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
  protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        spdlog::memory_buf_t formatted;
        formatter_->format(msg, formatted);
        std::string_view text(formatted.data(), formatted.size());
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
        const std::string line = text::terminal_safe(text) + "\n";
        (void)std::fwrite(line.data(), 1, line.size(), stderr);
    }
    void flush_() override { (void)std::fflush(stderr); }
};

std::shared_ptr<spdlog::logger> make_logger(const GlobalOptions& options) {
    auto logger =
        std::make_shared<spdlog::logger>("rdmi-probe", std::make_shared<EscapingStderrSink>());
    logger->set_pattern("rdmi-probe: %l: %v");
    if (options.quiet) {
        logger->set_level(spdlog::level::err);
    } else if (options.verbose >= 2) {
        logger->set_level(spdlog::level::debug);
    } else if (options.verbose == 1) {
        logger->set_level(spdlog::level::info);
    } else {
        logger->set_level(spdlog::level::warn);
    }
    return logger;
}

}  // namespace

Session::Session(GlobalOptions options, std::shared_ptr<spdlog::logger> log, LinkRule link_rule,
                 RunClock clock)
    : options_(std::move(options)),
      log_(std::move(log)),
      link_rule_(std::move(link_rule)),
      started_(clock.started),
      deadline_(clock.deadline),
      watchdog_(std::move(clock.watchdog)) {
    style_.color = use_color(options_, env_);
    style_.verbosity = options_.quiet ? -1 : options_.verbose;
    // The terminal the document goes to; --output writes a file, which has no width of its own.
    style_.width =
        terminal_width(options_.output.empty() ? window_columns(STDOUT_FILENO) : std::nullopt,
                       env_.get("COLUMNS"));
    progress_ = make_progress(options_.quiet, options_.verbose, env_);
    output_ = std::make_unique<DocumentOutput>(
        OutputSettings{options_.json, options_.output, timeout(), options_.fields, style_.width},
        *log_, progress_.get(), *watchdog_);
}

namespace {

std::chrono::milliseconds timeout_of(const GlobalOptions& options) {
    return std::chrono::milliseconds(static_cast<long long>(options.timeout_s * 1000.0));
}

// --root FILE: a bundle archive, extracted into a private directory that the session owns,
// within the run's deadline.
Result<std::string> extract_root(const std::string& archive, std::unique_ptr<PrivateDir>& dir,
                                 const Deadline& deadline, const LinkRule& links) {
    const std::string parent = default_private_parent();
    // PrivateDir refuses a parent another user could swap the extracted root in.
    auto made = PrivateDir::create(parent);
    if (!made) return Gap{made.gap().reason, "--root " + archive + ": " + made.gap().message};
    dir = std::make_unique<PrivateDir>(std::move(made).value());
    auto root =
        bundle::extract_bundle(archive, dir->path(), deadline, bundle::kBundleLimits, links);
    if (!root) return Gap{root.gap().reason, "--root " + root.gap().message};
    return root;
}

// The links this run follows: the owner rule when the process reads beyond its user's rights;
// --allow-foreign-links follows what the rule refuses, saying so once per link.
LinkRule link_rule_for(const GlobalOptions& options, std::shared_ptr<spdlog::logger> log) {
    LinkRule rule = LinkRule::for_this_process();
    if (!rule.owner_match || !options.allow_foreign_links) return rule;
    struct Said {
        std::mutex mutex;
        std::set<std::string, std::less<>> messages;
    };
    rule.on_followed_anyway = [log = std::move(log),
                               said = std::make_shared<Said>()](const std::string& followed) {
        const std::scoped_lock lock(said->mutex);
        if (!said->messages.insert(followed).second) return;
        log->warn("following a symbolic link because of --allow-foreign-links: {}", followed);
    };
    return rule;
}

}  // namespace

namespace {

// Before any child starts: under --root nothing of the root is loaded or run; the one child that
// may (this machine's librpm reading the root's rpm database) is contained on its own terms.
void configure_run_containment(const GlobalOptions& options, bool live, bool replay,
                               spdlog::logger& log) {
    ContainmentSettings settings;
    settings.landlock = !options.no_landlock;
    settings.syscall_filter = !options.no_syscall_filter;
    if (replay) {
        settings.applicable = false;
        settings.not_applicable_reason =
            "a bundle is replayed: nothing is loaded or run here (the bundle's report.json says "
            "how the gathering run's children were contained)";
    } else if (!live) {
        settings.applicable = false;
        settings.not_applicable_reason =
            "--root: nothing of the root is loaded or run (an rpm database it holds is read by "
            "this machine's librpm, in a contained child)";
    } else {
        if (options.no_landlock) {
            log.warn(
                "--no-landlock: the children that load vendor libraries and run tools as this "
                "user are not under Landlock: they may write any file this user can");
        }
        if (options.no_syscall_filter) {
            log.warn(
                "--no-syscall-filter: the children that load vendor libraries and run tools as "
                "this user are not under the system call filter: they may change the mode and "
                "owner of this user's files and reach its UNIX sockets");
        }
    }
    configure_containment(settings);
}

}  // namespace

Result<std::unique_ptr<Session>> Session::open(const GlobalOptions& options) {
    // The run starts here, not when the session is built: extracting a bundle archive is part
    // of the run, within its --timeout (the watchdog ends a read that never returns) and in
    // its duration.
    const auto started = std::chrono::steady_clock::now();
    const auto bound = timeout_of(options) + options.wait;
    RunClock clock{started, Deadline(bound),
                   std::make_unique<Watchdog>(started + bound + kWatchdogGrace, options.timeout_s,
                                              options.json,
                                              std::chrono::duration<double>(options.wait).count())};
    auto log = make_logger(options);
    LinkRule links = link_rule_for(options, log);
    std::unique_ptr<PrivateDir> extracted;
    std::string root = options.root;
    struct stat st {};
    if (options.root_given && ::stat(root.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        auto extracted_root = extract_root(root, extracted, clock.deadline, links);
        if (!extracted_root) return extracted_root.gap();
        root = *extracted_root;
    }
    auto fs = RootedFs::open(root, RootedFs::Resolution::kernel, !options.root_given, links);
    if (!fs) return Gap{fs.gap().reason, "--root " + fs.gap().message};
    // The root is opened O_PATH, which needs no permission on it: a root the user cannot list
    // or search would read as an empty machine ("DOCA does not exist"). It is bad input.
    if (::faccessat(AT_FDCWD, root.c_str(), R_OK | X_OK, AT_EACCESS) != 0) {
        const int error = errno;
        return Gap{error == EACCES ? GapReason::permission_denied : GapReason::error,
                   "cannot read root " + options.root + ": " +
                       (error == EACCES ? std::string("permission denied")
                                        : std::string(std::strerror(error)))};
    }
    const bool live = fs->is_live();
    std::unique_ptr<Fs> root_fs = std::make_unique<RootedFs>(std::move(fs).value());
    std::optional<bundle::Replay> replay;
    if (options.root_given) {
        const std::string shown_root = root_fs->root();
        auto opened = bundle::open_replay(root_fs);
        if (!opened) {
            std::string message = opened.gap().message;
            // Inside an extracted archive, a document is named by the archive and its entry
            // ("b.tar.gz: rdmi-probe-bundle/.rdmi-probe-bundle/manifest.json: ..."), never by
            // the private directory it was extracted to.
            if (extracted && message.starts_with(extracted->path() + "/"))
                message = options.root + ": " + message.substr(extracted->path().size() + 1);
            return Gap{opened.gap().reason, "--root " + message};
        }
        replay = std::move(opened).value();
    }
    if (extracted && !replay) {
        return Gap{
            GapReason::malformed,
            "--root " + options.root + ": not a bundle (no .rdmi-probe-bundle/manifest.json)"};
    }
    GlobalOptions resolved = options;
    // A bundle replays the run it recorded: its --doca-prefix, unless one is given now.
    if (replay && resolved.doca_prefix.empty()) resolved.doca_prefix = replay->doca_prefix;
    if (!resolved.doca_prefix.empty() && resolved.doca_prefix.front() != '/') {
        // A relative prefix means the working directory on the live system; inside a mounted
        // root there is no working directory to be relative to.
        if (!live) {
            return Gap{GapReason::error, "--doca-prefix " + options.doca_prefix +
                                             ": must be an absolute path under --root"};
        }
        resolved.doca_prefix =
            std::filesystem::absolute(resolved.doca_prefix).lexically_normal().string();
    }
    std::unique_ptr<Session> session(
        new Session(resolved, std::move(log), std::move(links), std::move(clock)));
    session->extracted_ = std::move(extracted);
    // At most one private directory exists at a time: the extraction's, when there is one.
    if (session->extracted_) session->private_dir_->share(*session->extracted_);
    configure_run_containment(resolved, live, replay.has_value(), session->log());
    if (replay) {
        session->fs_ = std::move(replay->fs);
        session->answers_ = std::move(replay->answers);
        session->probe_env_ =
            std::make_unique<MapEnv>(std::map<std::string, std::string, std::less<>>(
                replay->env.begin(), replay->env.end()));
        session->replaying_ = true;
    } else {
        session->fs_ = std::move(root_fs);
    }
    return session;
}

ProbeContext Session::probe_context() const {
    return probe_context(*fs_, probe_env(), answers());
}

ProbeContext Session::probe_context(const Fs& fs, const Env& env,
                                    const LiveAnswers& answers) const {
    ProbeContext ctx{fs,
                     env,
                     *log_,
                     deadline_,
                     timeout(),
                     std::nullopt,
                     options_.allow_untrusted_libs,
                     progress_ ? *progress_ : Progress::none(),
                     answers,
                     worker_,
                     trust_cache_,
                     private_dir_,
                     packages_};
    if (!options_.doca_prefix.empty()) ctx.doca_prefix = options_.doca_prefix;
    return ctx;
}

RunInfo Session::run_info() const {
    RunInfo run;
    run.root = fs_->root();
    run.live = live();
    run.generated_at = generation_time(env_);
    run.timeout_s = options_.timeout_s;
    run.containment = containment_status();
    run.duration_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_)
            .count();
    return run;
}

std::chrono::milliseconds Session::timeout() const {
    return timeout_of(options_);
}

}  // namespace rdmi::cli
