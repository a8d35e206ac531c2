// Command: one subcommand of rdmi-probe (its options and its run function); the table of them.
#pragma once

#include <chrono>
#include <memory>
#include <string_view>
#include <vector>

#include "cli/session.hpp"

namespace CLI {
class App;
}

namespace rdmi::cli {

/// One subcommand. Each lives in its own file and registers its own options.
class Command {
  public:
    virtual ~Command() = default;
    /// The subcommand's name ("report").
    [[nodiscard]] virtual std::string_view name() const = 0;
    /// One line for --help.
    [[nodiscard]] virtual std::string_view summary() const = 0;
    /// Adds the subcommand's own options to its CLI11 app.
    virtual void add_options(CLI::App& sub) = 0;
    /// How much longer than --timeout this run may take (check --wait); read after parsing,
    /// before the session (its deadline and watchdog) is made.
    [[nodiscard]] virtual std::chrono::milliseconds wait() const { return {}; }
    /// Runs and returns the exit code. Never prints except through Session::emit and the log.
    virtual int run(const Session& session) = 0;
};

/// Every subcommand, in --help order; the first is the default.
std::vector<std::unique_ptr<Command>> make_commands();

/// The `report` subcommand (the default).
std::unique_ptr<Command> make_report_command();
/// The `env` subcommand (doca-env).
std::unique_ptr<Command> make_env_command();
/// The `caps` subcommand (capability-snapshot).
std::unique_ptr<Command> make_caps_command();
/// The `state` subcommand (collect-host-state / collect-dpu-state).
std::unique_ptr<Command> make_state_command();
/// The `schema` subcommand (prints the embedded JSON Schemas).
std::unique_ptr<Command> make_schema_command();
/// The `diff` subcommand (compares two saved documents).
std::unique_ptr<Command> make_diff_command();

/// The `loopback` subcommand.
std::unique_ptr<Command> make_loopback_command();
/// The `symbols` subcommand.
std::unique_ptr<Command> make_symbols_command();
/// The `check` subcommand (also run as `doca-validate`).
std::unique_ptr<Command> make_check_command();
/// The `error` subcommand (explains a DOCA error).
std::unique_ptr<Command> make_error_command();
/// The `gather` subcommand (support bundle).
std::unique_ptr<Command> make_gather_command();

}  // namespace rdmi::cli
