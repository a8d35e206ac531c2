// `rdmi-probe check` (also `doca-validate`): a CI gate. Requirements from --policy and flags,
// one contract check each, exit 0/1/3 for pass/fail/skip and 2 for bad input.
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "check/check_catalog.hpp"
#include "check/evaluate.hpp"
#include "check/gate_evaluator.hpp"
#include "check/policy.hpp"
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
#include "cli/run_time.hpp"
#include "cli/user_path.hpp"
#include "cli/wait_loop.hpp"
#include "core/consistency_rule.hpp"
#include "json/json_common.hpp"
#include "json/json_input.hpp"
#include "model/registry.hpp"
#include "probes/install/version_consistency.hpp"
#include "report/findings_output.hpp"
#include "report/gate_formats.hpp"
#include "report/gate_json.hpp"
#include "text/text.hpp"

namespace rdmi::cli {
namespace {

// 0.2, 5, 4.783: seconds as a person reads them.
std::string seconds_text(double seconds) {
    std::array<char, 32> buf{};
    std::snprintf(buf.data(), buf.size(), "%g", seconds);  // NOLINT(cert-err33-c)
    return buf.data();
}

struct CheckOptions {
    std::string policy;
    /// The requirements the flags give as they are; flags() adds the ones that need parsing.
    gate::Policy given;
    std::string min_version;
    std::string max_version;
    std::string exact_version;
    std::vector<std::string> modules;
    std::vector<std::string> allow;
    std::vector<std::string> waive;
    std::string device;
    bool fail_on_warn = false;
    std::string format = "text";
    bool strict_contract = false;
    bool list_checks = false;
    std::string explain;
    std::string for_purposes;  ///< --for: "run", "build", "all"; empty for the policy's own
    double wait_s = 0;         ///< --wait, in seconds (its parser turns "2m" into 120)
    double interval_s = 1;     ///< --interval
};

class CheckCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "check"; }
    [[nodiscard]] std::string_view summary() const override {
        return "CI gate (also doca-validate): DOCA version, modules, RDMI symbols, an app's "
               "experimental calls, hardware; exit 0/1/3 = pass/fail/skip";
    }

    void add_options(CLI::App& sub) override {
        const std::string_view me = name();
        add_modelled(sub, me, "--policy", opts_.policy);
        add_modelled(sub, me, "--for", opts_.for_purposes);
        add_modelled(sub, me, "--min-version", opts_.min_version);
        add_modelled(sub, me, "--max-version", opts_.max_version);
        add_modelled(sub, me, "--exact-version", opts_.exact_version);
        add_modelled(sub, me, "--require-module", opts_.modules);
        add_modelled(sub, me, "--require-symbol", opts_.given.symbols);
        add_modelled(sub, me, "--require-stable", opts_.given.stable);
        add_modelled(sub, me, "--app", opts_.given.app);
        add_modelled(sub, me, "--forbid-experimental", opts_.given.forbid_experimental);
        add_modelled(sub, me, "--allow-experimental", opts_.allow);
        device_option_ = add_modelled(sub, me, "--require-device", opts_.device);
        add_modelled(sub, me, "--require-dpa", opts_.given.require_dpa);
        add_modelled(sub, me, "--require-port-active", opts_.given.require_port_active);
        add_modelled(sub, me, "--require-consistent", opts_.given.require_consistent);
        add_modelled(sub, me, "--waive-source", opts_.waive);
        add_modelled(sub, me, "--require-pcie-link", opts_.given.require_pcie_link);
        add_modelled(sub, me, "--require-integrity", opts_.given.require_integrity);
        add_modelled(sub, me, "--fail-on-warn", opts_.fail_on_warn);
        wait_option_ = add_modelled(sub, me, "--wait", opts_.wait_s);
        interval_option_ = add_modelled(sub, me, "--interval", opts_.interval_s);
        add_modelled(sub, me, "--format", opts_.format);
        add_modelled(sub, me, "--strict-contract", opts_.strict_contract);
        add_modelled(sub, me, "--list-checks", opts_.list_checks);
        add_modelled(sub, me, "--explain", opts_.explain);
    }

    [[nodiscard]] std::chrono::milliseconds wait() const override {
        if (!waiting()) return {};
        return std::chrono::milliseconds(std::llround(opts_.wait_s * 1000.0));
    }

    int run(const Session& session) override {
        json_ = session.options().json || opts_.format == "json";
        if (auto refused = wait_refused(session)) return fail_input(session, *refused);
        if (opts_.list_checks || !opts_.explain.empty()) return catalog(session);
        gate::GateReport gate;
        gate::Policy policy;
        // The command line's requirements, parsed first: whether any is given decides whether a
        // policy that --for empties is a usage error, and no list of flags can miss one.
        auto extra = flags(session.link_rule());
        if (!extra) return fail_input(session, extra.gap().message);
        if (!opts_.policy.empty()) {
            gate.spec_path = opts_.policy;
            auto loaded = load_policy(opts_.policy, session.link_rule());
            if (!loaded) return fail_input(session, loaded.gap().message);
            policy = std::move(loaded).value();
            // A file that asks for nothing at all is refused as such, not as --for's doing.
            const bool asks_anything = !policy.empty();
            const Purposes wanted = opts_.for_purposes.empty()
                                        ? policy.for_purposes.value_or(Purposes::both)
                                        : *parse_for(opts_.for_purposes);
            gate::keep_purposes(policy, wanted);
            if (policy.empty() && extra->empty()) {
                return fail_input(
                    session,
                    "check: --policy " + opts_.policy +
                        (asks_anything
                             ? ": none of its requirements answers --for " +
                                   std::string(for_name(wanted)) +
                                   " (check --list-checks gives each check's)"
                             : ": it names no requirement (waive_sources alone judges nothing: "
                               "add require_consistent)"));
            }
        }
        if (opts_.policy.empty() && !opts_.for_purposes.empty()) {
            // Said, not refused: the run still judges what the flags ask for.
            session.log().warn(
                "check: --for {} filters a --policy file's requirements; there is "
                "none, and flags are always judged",
                opts_.for_purposes);
        }
        gate::merge_policy(policy, *extra);
        if (policy.empty()) {
            return fail_input(session,
                              "check: no requirements (give --policy FILE or a --min-version, "
                              "--require-* or --app flag; see check --help)");
        }
        if (!policy.allow_experimental.empty() && !policy.forbid_experimental)
            return fail_input(session, "check: --allow-experimental needs --forbid-experimental");
        if (policy.forbid_experimental && policy.app.empty())
            return fail_input(session, "check: --forbid-experimental needs --app");
        if (!policy.waive_sources.empty() && !policy.require_consistent) {
            return fail_input(session,
                              "check: --waive-source needs --require-consistent (a waiver only "
                              "changes the version consistency match)");
        }
        // The application is the user's file, like the policy: a path on this machine, relative
        // to the working directory, even under --root (which is only where DOCA is probed).
        auto user_fs = RootedFs::open("/", RootedFs::Resolution::kernel, true, session.link_rule());
        if (!user_fs) return fail_input(session, user_fs.gap().message);
        policy.app = user_path(policy.app);
        if (!policy.app.empty()) {
            if (auto info = user_fs->stat(policy.app); !info)
                return fail_input(session, "check: --app " + info.gap().message);
            // An application that does not read is bad input (exit 2, as symbols --check), not
            // a skipped check whose fix would be installing DOCA.
            if (auto app = read_application(*user_fs, policy.app); !app)
                return fail_input(session, "check: --app " + app.gap().message);
        }

        gate.fail_on_warn = opts_.fail_on_warn;
        if (waiting()) {
            gate.wait = wait_for_pass(session, policy, *user_fs, gate.checks);
        } else {
            gate::GateEvaluator evaluator(policy, *user_fs, session.live());
            gate.checks = evaluator.evaluate(session.probe_context());
            session.release_worker();
        }
        gate.waived_sources = policy.waive_sources;
        gate.result = gate::gate_verdict(gate.checks, gate.fail_on_warn);
        json::RunFacts run;
        run.root = session.fs().root();
        run.live = session.live();
        run.generated_at = generation_time(session.env());
        std::string document;
        if (json_) {
            document = json::dump(json::check_json(gate, run, opts_.strict_contract));
        } else if (opts_.format == "junit") {
            document = gate::gate_junit(gate);
        } else if (opts_.format == "github") {
            document = gate::gate_github(gate);
        } else {
            document = gate::gate_text(gate, session.style());
        }
        const bool human = !json_ && opts_.format == "text";
        return session.output().finish({document, human ? Reader::human : Reader::machine},
                                       exit_code_for(gate.result));
    }

  private:
    [[nodiscard]] bool waiting() const {
        return wait_option_ != nullptr && wait_option_->count() > 0;
    }

    // --wait's usage errors: what it cannot mean, refused before anything is read.
    [[nodiscard]] std::optional<std::string> wait_refused(const Session& session) const {
        const bool interval_given = interval_option_ != nullptr && interval_option_->count() > 0;
        if (!waiting()) {
            if (interval_given)
                return "check: --interval needs --wait (the pause between its evaluations)";
            return std::nullopt;
        }
        if (opts_.list_checks || !opts_.explain.empty()) {
            return std::string("check: --wait judges requirements again until they pass; ") +
                   (opts_.list_checks ? "--list-checks" : "--explain") + " judges nothing";
        }
        if (interval_given && opts_.interval_s > opts_.wait_s) {
            return "check: --interval " + seconds_text(opts_.interval_s) +
                   " s is longer than --wait " + seconds_text(opts_.wait_s) +
                   " s: there would be no second evaluation";
        }
        if (session.replaying()) {
            return "check: --wait: --root " + session.options().root +
                   " is a support bundle, a recording: nothing in it can change, so there is "
                   "nothing to wait for (wait on the live host or a mounted root)";
        }
        return std::nullopt;
    }

    // Evaluates until the requirements pass or --wait has passed; `checks` ends as the last
    // evaluation's. The first evaluation reads everything; each later one is a poll that
    // re-reads what the requirements can see change (gate::GateEvaluator). A poll that passes,
    // and the wait's last one, are made whole by a full evaluation, whose checks are the
    // document: it is what a fresh check says at that moment. Each evaluation reads within its
    // own --timeout, capped by the run's deadline (which --wait extended), with its own trust
    // snapshot and package database.
    gate::GateWait wait_for_pass(const Session& session, const gate::Policy& policy,
                                 const Fs& user_fs, std::vector<Check>& checks) const {
        using std::chrono::milliseconds;
        const WaitSettings settings{wait(), milliseconds(std::llround(opts_.interval_s * 1000.0))};
        Progress& progress = session.probe_context().progress;
        gate::GateEvaluator evaluator(policy, user_fs, session.live());
        std::string last_result;
        auto fresh_context = [&] {
            ProbeContext ctx = session.probe_context();
            ctx.deadline = session.deadline().capped(session.timeout());
            ctx.trust_cache = std::make_shared<TrustCache>();
            ctx.packages = std::make_shared<PackageDatabase>();
            return ctx;
        };
        auto judged = [&](std::vector<Check> found) {
            checks = std::move(found);
            session.release_worker();
            const Status result = gate::gate_verdict(checks, opts_.fail_on_warn);
            last_result = std::string(to_string(result));
            return result == Status::pass;
        };
        bool first = true;
        auto evaluate_once = [&] {
            if (first) {
                first = false;
                return judged(evaluator.evaluate(fresh_context()));
            }
            const bool passed = judged(evaluator.poll(fresh_context()));
            if (!passed || evaluator.complete()) return passed;
            return judged(evaluator.evaluate(fresh_context()));
        };
        auto conclude = [&] {
            if (evaluator.complete()) return false;  // the last evaluation's checks stand
            return judged(evaluator.evaluate(fresh_context()));
        };
        auto say_pause = [&](const WaitPause& pause) {
            auto seconds = [](milliseconds ms) {
                return seconds_text(std::chrono::duration<double>(ms).count());
            };
            const std::string line = "check --wait: evaluation " +
                                     std::to_string(pause.evaluations) + ": " + last_result +
                                     "; again in " + seconds(pause.pause) + " s (" +
                                     seconds(pause.left) + " s left)";
            session.log().info("{}", line);
            // A fresh line: the probes' own updates would throttle this one away.
            progress.finish();
            progress.update(line, 0, 0);
        };
        const WaitSummary summary =
            wait_until_passed(settings, WaitClock::steady(), evaluate_once, say_pause, conclude);
        progress.finish();
        gate::GateWait wait;
        wait.wait_s = opts_.wait_s;
        wait.interval_s = opts_.interval_s;
        wait.evaluations = summary.evaluations;
        wait.waited_s = std::chrono::duration<double>(summary.waited).count();
        return wait;
    }

    // --list-checks and --explain: the finding catalog, not a gate run.
    int catalog(const Session& session) const {
        const FindingInfo* only = nullptr;
        if (!opts_.explain.empty()) {
            only = find_check(opts_.explain);
            if (only == nullptr) {
                return fail_input(session, "check: --explain " + opts_.explain +
                                               ": no such check id (check --list-checks lists "
                                               "them)");
            }
        }
        std::string document = findings::catalog_json(only);
        if (!json_) {
            document = only != nullptr ? findings::finding_text(session.style(), *only)
                                       : findings::catalog_text(session.style());
        }
        return session.output().finish({document, json_ ? Reader::machine : Reader::human},
                                       kExitOk);
    }

    // Messages name the file as the user spelled it.
    static Result<gate::Policy> load_policy(const std::string& path, const LinkRule& links) {
        // The policy file is the user's (cli/user_path.hpp). Every message names the full path
        // tried, not the spelling: "--policy p.json: no such file" does not say which
        // directory was searched.
        const std::string full = user_path(path);
        auto bytes = read_user_file("--policy", full, json_input::kPolicy.max_bytes, links);
        if (!bytes) return bytes.gap();
        return gate::parse_policy(*bytes, full);
    }

    // The command line's requirements, validated like the policy file's.
    Result<gate::Policy> flags(const LinkRule& links) const {
        gate::Policy p = opts_.given;
        auto version = [](const std::string& flag,
                          const std::string& v) -> Result<std::optional<std::string>> {
            if (v.empty()) return std::optional<std::string>{};
            if (auto ok = gate::parse_gate_version(v); !ok)
                return Gap{GapReason::malformed, flag + ": " + ok.gap().message};
            return std::optional<std::string>{v};
        };
        for (auto [flag, value, slot] :
             {std::tuple{"--min-version", &opts_.min_version, &p.min_version},
              std::tuple{"--max-version", &opts_.max_version, &p.max_version},
              std::tuple{"--exact-version", &opts_.exact_version, &p.exact_version}}) {
            auto v = version(flag, *value);
            if (!v) return v.gap();
            *slot = *v;
        }
        for (const auto& text : opts_.modules) {
            auto m = gate::parse_module_requirement(text);
            if (!m) return Gap{GapReason::malformed, "--require-module " + m.gap().message};
            p.modules.push_back(std::move(m).value());
        }
        for (const auto& name : opts_.waive) {
            if (auto ok = gate::check_waived_source(name); !ok)
                return Gap{GapReason::malformed, "--waive-source " + ok.gap().message};
            p.waive_sources.push_back(name);
        }
        auto allowed = experimental_allow_list(opts_.allow, links);
        if (!allowed) return allowed.gap();
        p.allow_experimental = std::move(allowed).value();
        if (device_option_ != nullptr && device_option_->count() > 0) p.device = opts_.device;
        return p;
    }

    // --format json counts as --json for the error document.
    int fail_input(const Session& session, const std::string& message) const {
        return session.output().fail(message, json_ ? Reader::machine : Reader::human);
    }

    CheckOptions opts_;
    CLI::Option* device_option_ = nullptr;
    CLI::Option* wait_option_ = nullptr;
    CLI::Option* interval_option_ = nullptr;
    bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_check_command() {
    return std::make_unique<CheckCommand>();
}

}  // namespace rdmi::cli
