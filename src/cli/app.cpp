// CLI wiring: global options, the subcommand table, parse errors, the never-crash boundary.
#include "cli/app.hpp"

#include <signal.h>
#include <unistd.h>
#include "cli/cli11.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "build_info.hpp"
#include "cli/command.hpp"
#include "cli/completion.hpp"
#include "cli/document_output.hpp"
#include "cli/error_document.hpp"
#include "cli/exit_codes.hpp"
#include "cli/help_text.hpp"
#include "cli/interrupt.hpp"
#include "cli/option_binding.hpp"
#include "cli/option_model.hpp"
#include "cli/option_model_json.hpp"
#include "core/exhaustion.hpp"
#include "os/fs.hpp"
#include "os/memory_reserve.hpp"
#include "os/open_file_limit.hpp"
#include "os/standard_fds.hpp"
#include "os/terminal_width.hpp"
#include "report/terminal_text.hpp"
#include "text/closest_name.hpp"

namespace rdmi::cli {
namespace {

// --field implies --json: a run that cannot give the values writes the error document.
bool wants_json(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "--json" || arg == "--field" || arg.starts_with("--field=")) return true;
    }
    return false;
}

int fail_usage(bool json, std::string message) {
    // A signal being handled writes the run's last words; this one yields.
    if (!claim_output(OutputOwner::document)) {
        wait_for_the_owner_to_exit();
    }
    // One line, whatever the exception text held; a user-named path is escaped like every
    // human output.
    for (char& c : message) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    const std::string shown = text::terminal_safe(message);
    std::fprintf(stderr, "rdmi-probe: %s\n", shown.c_str());  // NOLINT(cert-err33-c)
    if (json)
        std::fputs(error_document(message, kExitUsage).c_str(), stdout);  // NOLINT(cert-err33-c)
    return kExitUsage;
}

/// The command line as the rdmi-probe parser sees it: under a helper name, the helper's
/// subcommand (and forced option) go in front of the user's arguments.
std::vector<std::string> effective_args(int argc, char** argv, std::string& program) {
    std::vector<std::string> args(argv, argv + argc);
    program = std::string(base_name(args.empty() ? std::string_view() : args[0]));
    for (const auto& helper : helper_names()) {
        if (program != helper.name) continue;
        args.insert(args.begin() + 1, std::string(helper.command));
        if (!helper.forced.empty()) args.insert(args.begin() + 2, std::string(helper.forced));
        return args;
    }
    program = build_info::kToolName;
    return args;
}

/// A helper whose name implies an option (doca-collect-host-state: --side=host) given that option
/// again: CLI11 would say "--side: At Most 1 required but received 2", which names no cause.
std::optional<std::string> forced_option_given(const std::string& program,
                                               const std::vector<std::string>& args) {
    for (const auto& helper : helper_names()) {
        if (program != helper.name || helper.forced.empty()) continue;
        const std::string_view forced = helper.forced;
        const std::string option(forced.substr(0, forced.find('=')));
        // args: program, command, the forced option, then the user's arguments.
        for (std::size_t i = 3; i < args.size(); ++i) {
            if (args[i] == "--") break;
            if (args[i] == option || args[i].starts_with(option + "=")) {
                std::string message = program;
                message += " implies ";
                message += forced;
                message += " (from its name); drop ";
                message += option;
                message += ", or run rdmi-probe ";
                message += helper.command;
                message += ' ';
                message += option;
                message += "=...";
                return message;
            }
        }
    }
    return std::nullopt;
}

// --field reads the JSON document the command writes: a command that writes none, or a --format
// that asks for another document, has no value to give.
std::optional<std::string> field_refused(std::string_view command, const CLI::App& parser) {
    if (find_option(command, "--field") == nullptr) {
        return "--field: " + std::string(command) +
               " writes no JSON document on stdout to read a value from";
    }
    const CLI::Option* format = parser.get_option_no_throw("--format");
    if (format != nullptr && format->count() > 0 && format->as<std::string>() != "json") {
        return "--field reads the JSON document; --format " + format->as<std::string>() +
               " asks for another (give --format json, or no --format)";
    }
    return std::nullopt;
}

// error_document() without allocating: the same document, from fixed pieces.
void write_out_of_memory_document() noexcept {
    // NOLINTBEGIN(cert-err33-c)
    std::fputs("{\n  \"schema\": \"", stdout);
    std::fputs(kErrorSchemaId, stdout);
    std::fputs("\",\n  \"schema_version\": \"1.1.0\",\n  \"tool\": {\n    \"name\": \"", stdout);
    std::fputs(build_info::kToolName, stdout);
    std::fputs("\",\n    \"version\": \"", stdout);
    std::fputs(build_info::kVersion, stdout);
    std::fputs(
        "\"\n  },\n  \"error\": {\n    \"message\": \"internal error: out of resources: memory: "
        "Cannot allocate memory (ENOMEM)\",\n"
        "    \"exit_code\": 2\n  }\n}\n",
        stdout);
    std::fflush(stdout);
    // NOLINTEND(cert-err33-c)
}

// --help and --version (after other arguments) through stdio: App::exit()'s default streams are
// std::cout and std::cerr, which this program never constructs (cli/cli11.hpp).
int print_help(const CLI::App& app, const CLI::Error& e) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = app.exit(e, out, err);
    const std::string text = out.str();
    const std::string error = err.str();
    const int written = write_text_to_stdout(text);
    std::fwrite(error.data(), 1, error.size(), stderr);  // NOLINT(cert-err33-c)
    return written != kExitOk ? written : code;
}

// A subcommand runs only when its name is one of the arguments, so only those named get their
// options: every run used to build every subcommand's options (CLI11 option objects, validators,
// default strings) before parsing. A name that is really an option's value ("--root report")
// only costs one unused set of options; parsing is the same.
bool named(const std::vector<std::string>& args, std::string_view command) {
    return std::find(args.begin() + (args.empty() ? 0 : 1), args.end(), command) != args.end();
}

// Help is written for a reader: 100 columns when stdout is no terminal and COLUMNS is unset.
constexpr std::size_t kHelpFallbackWidth = 100;

int print_text(const std::string& text) {
    return write_text_to_stdout(text);
}

std::vector<CommandSummary> summaries(const std::vector<std::unique_ptr<Command>>& commands,
                                      bool with_mcp) {
    std::vector<CommandSummary> out;
    for (const auto& command : commands) out.push_back({command->name(), command->summary()});
    if (with_mcp) out.push_back(kMcpSummary);
    return out;
}

// Where the subcommand is on the command line: the first word that is neither an option nor
// the value of one (CLI11 would take "--root report" as naming report). 0 when there is none.
std::size_t subcommand_index(const std::vector<std::string>& args) {
    const std::string_view fallback = command_names().front();
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--") return 0;
        if (arg.size() < 2 || arg[0] != '-') return i;
        if (arg.find('=') != std::string::npos) continue;
        // Bundled short flags (-vv, -qv) stand alone.
        if (arg[1] != '-' && arg.find_first_not_of("vqhV", 1) == std::string::npos) continue;
        const OptionSpec* option = find_option(fallback, arg);
        // An option of another subcommand (--lib): whether a value follows is unknown, so the
        // parser names what it does not expect.
        if (option == nullptr && arg != "-h" && arg != "--help" && arg != "-V" &&
            arg != "--version")
            return 0;
        if (option != nullptr && option->kind != ValueKind::flag && !option->value_optional) ++i;
    }
    return 0;
}

bool asks_for_help(const std::vector<std::string>& args) {
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--") return false;
        if (args[i] == "-h" || args[i] == "--help") return true;
    }
    return false;
}

bool is_command(std::string_view word) {
    const auto names = command_names();
    return std::find(names.begin(), names.end(), word) != names.end();
}

std::string not_a_subcommand(std::string_view word) {
    std::string message = "'" + std::string(word) + "' is not a subcommand";
    if (auto near = text::closest_name(word, command_names()))
        message += "; did you mean '" + std::string(*near) + "'?";
    return message + " (see --help)";
}

// An option only the default subcommand has, given without naming it ("rdmi-probe --format
// prometheus"): the parser is given the name, as the user meant it.
bool names_default_option(const std::vector<std::string>& args) {
    const std::string_view fallback = command_names().front();
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--") return false;
        const std::string name = args[i].substr(0, args[i].find('='));
        const OptionSpec* option = find_option(fallback, name);
        if (option != nullptr && !option->global && !option->positional) return true;
    }
    return false;
}

// The JSON document and another format cannot both be on stdout: refused in every subcommand
// that has --format, as report always did (check used to print the JSON and ignore junit).
std::optional<std::string> format_refused(const GlobalOptions& opts, const CLI::App& parser) {
    if (!opts.json) return std::nullopt;
    const CLI::Option* format = parser.get_option_no_throw("--format");
    if (format == nullptr || format->count() == 0 || format->as<std::string>() == "json")
        return std::nullopt;
    std::string message = std::string(parser.get_name()) +
                          ": --json asks for the JSON document and --format " +
                          format->as<std::string>() +
                          " for another document; give one of them (--json is --format json)";
    // The file is left alone: JSON in a Prometheus or JUnit reader's file would break it.
    if (!opts.output.empty() && opts.output != "-") message += "; --output not written";
    return message;
}

int run_unguarded(int argc, char** argv, bool json) {
    // A TAB press: answered from the option model alone, before any parser, session or child.
    if (argc >= 2 && std::string_view(argv[1]) == "__complete") {
        const std::vector<std::string> rest(argv + 2, argv + argc);
        return run_complete_command(rest);
    }
    std::string program;
    const std::vector<std::string> arg_strings = effective_args(argc, argv, program);
    // The floor of every run, answered before any parser is built; the same text CLI11 prints.
    if (arg_strings.size() == 2 && (arg_strings[1] == "--version" || arg_strings[1] == "-V")) {
        return print_text(std::string(build_info::kToolName) + " " + build_info::kVersion + "\n");
    }
    const bool own_name = program == build_info::kToolName;
    if (own_name && arg_strings.size() == 2 && arg_strings[1] == kOptionModelCommand)
        return print_text(json::dump(option_model_json(summaries(make_commands(), false))));
    // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any thread starts
    const char* columns = std::getenv("COLUMNS");
    const std::size_t width =
        terminal_width(window_columns(STDOUT_FILENO),
                       columns != nullptr ? std::optional<std::string_view>(columns) : std::nullopt,
                       kHelpFallbackWidth);
    std::size_t at = subcommand_index(arg_strings);
    if (at != 0 && arg_strings[at] == "help" && own_name) {
        if (at + 1 >= arg_strings.size())
            return print_text(program_help(summaries(make_commands(), true), width));
        const std::string& wanted = arg_strings[at + 1];
        for (const auto& command : make_commands()) {
            if (command->name() == wanted)
                return print_text(
                    command_help(program, {command->name(), command->summary()}, width));
        }
        return fail_usage(wants_json(argc, argv), "help: " + not_a_subcommand(wanted));
    }
    if (at != 0 && !is_command(arg_strings[at])) {
        if (arg_strings[at] == kMcpSummary.name)
            return fail_usage(wants_json(argc, argv),
                              "mcp takes its own options only, after it: rdmi-probe mcp [OPTIONS]");
        return fail_usage(wants_json(argc, argv), not_a_subcommand(arg_strings[at]));
    }
    if (asks_for_help(arg_strings)) {
        if (at == 0) return print_text(program_help(summaries(make_commands(), true), width));
        for (const auto& command : make_commands()) {
            if (command->name() == arg_strings[at])
                return print_text(
                    command_help(program, {command->name(), command->summary()}, width));
        }
    }
    std::vector<std::string> with_default;
    if (at == 0 && names_default_option(arg_strings)) {
        with_default = arg_strings;
        with_default.insert(with_default.begin() + 1, std::string(command_names().front()));
    }
    const std::vector<std::string>& parsed_args = with_default.empty() ? arg_strings : with_default;
    if (auto conflict = forced_option_given(program, arg_strings))
        return fail_usage(wants_json(argc, argv), *conflict);
    std::vector<const char*> arg_ptrs;
    arg_ptrs.reserve(parsed_args.size());
    for (const auto& a : parsed_args) arg_ptrs.push_back(a.c_str());
    const int count = static_cast<int>(arg_ptrs.size());
    const char* const* args = arg_ptrs.data();
    CLI::App app{"rdmi-probe: environment and capability probe for NVIDIA DOCA RDMI", program};
    app.set_version_flag("-V,--version",
                         std::string(build_info::kToolName) + " " + build_info::kVersion);
    app.require_subcommand(0, 1);
    GlobalOptions opts;
    add_global_options(app, opts);
    auto commands = make_commands();
    std::vector<std::pair<CLI::App*, Command*>> subs;
    for (auto& command : commands) {
        CLI::App* sub =
            app.add_subcommand(std::string(command->name()), std::string(command->summary()));
        sub->fallthrough();
        if (named(parsed_args, command->name())) command->add_options(*sub);
        subs.emplace_back(sub, command.get());
    }
    try {
        app.parse(count, args);
    } catch (const CLI::CallForHelp& e) {
        return print_help(app, e);
    } catch (const CLI::CallForAllHelp& e) {
        return print_help(app, e);
    } catch (const CLI::CallForVersion& e) {
        return print_help(app, e);
    } catch (const CLI::ParseError& e) {
        return fail_usage(json, std::string(e.what()) + " (see --help)");
    }
    // Live is the absence of --root: "--root /" (or "/.", "//", "/tmp/..") is a static probe.
    opts.root_given = app.count("--root") > 0;
    Command* chosen = commands.front().get();
    const CLI::App* chosen_parser = subs.front().first;
    for (auto& [sub, command] : subs) {
        if (sub->parsed()) {
            chosen = command;
            chosen_parser = sub;
        }
    }
    if (auto refused = format_refused(opts, *chosen_parser)) return fail_usage(true, *refused);
    if (opts.output == "-") opts.output.clear();  // "-" is stdout, as every Unix tool reads it
    if (!opts.fields.empty()) {
        if (auto refused = field_refused(chosen->name(), *chosen_parser))
            return fail_usage(true, *refused);
        opts.json = true;
    }
    install_interrupt_handlers(opts.json);
    opts.wait = chosen->wait();
    auto session = Session::open(opts);
    if (!session) return fail_usage(opts.json, session.gap().message);
    return chosen->run(**session);
}

}  // namespace

void add_global_options(CLI::App& app, GlobalOptions& opts) {
    add_modelled(app, "", "--json", opts.json);
    add_modelled(app, "", "--output", opts.output);
    add_modelled(app, "", "--root", opts.root);
    add_modelled(app, "", "--doca-prefix", opts.doca_prefix);
    add_modelled(app, "", "--timeout", opts.timeout_s);
    add_modelled(app, "", "--verbose", opts.verbose);
    add_modelled(app, "", "--quiet", opts.quiet);
    add_modelled(app, "", "--color", opts.color);
    add_modelled(app, "", "--allow-untrusted-libs", opts.allow_untrusted_libs);
    add_modelled(app, "", "--allow-foreign-links", opts.allow_foreign_links);
    add_modelled(app, "", "--no-landlock", opts.no_landlock);
    add_modelled(app, "", "--no-syscall-filter", opts.no_syscall_filter);
    add_modelled(app, "", "--field", opts.fields);
}

std::vector<std::unique_ptr<Command>> make_commands() {
    std::vector<std::unique_ptr<Command>> commands;
    commands.push_back(make_report_command());
    commands.push_back(make_loopback_command());
    commands.push_back(make_symbols_command());
    commands.push_back(make_env_command());
    commands.push_back(make_caps_command());
    commands.push_back(make_state_command());
    commands.push_back(make_schema_command());
    commands.push_back(make_diff_command());
    commands.push_back(make_check_command());
    commands.push_back(make_gather_command());
    commands.push_back(make_error_command());
    return commands;
}

int guarded(const std::function<int()>& body, bool json) {
    try {
        try {
            return body();
        } catch (const std::bad_alloc&) {
            // The heap is exhausted: building a message could throw again, so use fixed text.
            throw;
        } catch (const ResourceExhausted& e) {
            // Out of descriptors, memory or processes: no verdict can be trusted, so none is
            // given (the documents' "absent" and "skip" would be a statement about the system).
            return fail_usage(json, "internal error: out of resources: " + e.message());
        } catch (const std::system_error& e) {
            // A thread that could not be started (EAGAIN), or another call's exhaustion.
            const int err = e.code().category() == std::generic_category() ||
                                    e.code().category() == std::system_category()
                                ? e.code().value()
                                : 0;
            if (is_exhaustion(err) || err == EAGAIN) {
                return fail_usage(json, "internal error: out of resources: " +
                                            ResourceExhausted(e.what(), err).message());
            }
            return fail_usage(json, std::string("internal error: ") + e.what());
        } catch (const std::exception& e) {
            return fail_usage(json, std::string("internal error: ") + e.what());
        } catch (...) {
            return fail_usage(json, "internal error: unknown exception");
        }
    } catch (...) {
        // bad_alloc, or anything thrown while reporting the first error: no allocation here.
        std::fputs(  // NOLINT(cert-err33-c)
            "rdmi-probe: internal error: out of resources: memory: Cannot allocate memory "
            "(ENOMEM)\n",
            stderr);
        if (json) write_out_of_memory_document();
        return kExitUsage;
    }
}

int run(int argc, char** argv) {
    // Before anything is opened: a low soft limit costs nothing, and what the hard limit leaves
    // is exhaustion (exit 2), never "absent".
    (void)raise_open_file_limit();
    leave_room_below_cpu_limit();
    // A parent that ignores SIGCHLD passes that on through exec: the kernel would then reap
    // every child itself, each waitpid() fail with ECHILD, and a tool's answer read as
    // "No child processes" (a skip). The probe waits for its children: the default it is.
    (void)::signal(SIGCHLD, SIG_DFL);
    hold_standard_fds();
    // Room for the destructors a std::bad_alloc unwinds through (os/memory_reserve.hpp).
    arm_memory_reserve(kMemoryReserveBytes);
    // Decided before parsing, so that a parse error (and an internal one) still answers in JSON;
    // a helper name adds no "--json" of its own.
    const bool json = wants_json(argc, argv);
    return guarded([&] { return run_unguarded(argc, argv, json); }, json);
}

}  // namespace rdmi::cli
