// Shell completion from the option model: the words typed so far say which command and which
// option the cursor is in; the option's value kind says what may follow.
#include "cli/completion.hpp"

#include <sys/time.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "check/check_catalog.hpp"
#include "cli/completion_scripts.hpp"
#include "cli/document_output.hpp"
#include "cli/option_model.hpp"
#include "contract/embedded_schemas.hpp"
#include "doca_errors/doca_error_catalog.hpp"
#include "os/fs.hpp"
#include "probes/install/version_consistency.hpp"
#include "sysfs/device_names.hpp"

namespace rdmi::cli {
namespace {

// What the words before the cursor established.
struct LineState {
    std::string command{};  // "" while no subcommand is named
    std::string forced{};   // the option a helper name implies ("--side"), never offered
    const OptionSpec* awaiting_value = nullptr;  // the last word was an option wanting one
    std::string root{};                          // --root as given, dequoted; "" when absent
    std::size_t positionals = 0;
    bool options_ended = false;  // "--" was given
    std::set<std::string> given{};
};

bool takes_value(const OptionSpec& option) {
    return option.kind != ValueKind::flag;
}

// The option as `state` stands: the command's own and the globals, or, before a subcommand,
// the globals and the default subcommand's own (which apply without naming it).
const OptionSpec* option_named(const LineState& state, std::string_view name) {
    if (!state.command.empty()) return find_option(state.command, name);
    if (const OptionSpec* global = find_option({}, name)) return global;
    return find_option(command_names().front(), name);
}

void note_value(LineState& state, const OptionSpec& option, std::string_view value) {
    if (option.name == "--root") state.root = shell_dequote(value);
}

LineState read_line(std::span<const std::string> words) {
    LineState state;
    const std::string program(base_name(words.empty() ? std::string_view() : words.front()));
    for (const auto& helper : helper_names()) {
        if (program != helper.name) continue;
        state.command = helper.command;
        state.forced = helper.forced.substr(0, helper.forced.find('='));
    }
    // Every word but the first (the program) and the last (the one being completed).
    for (std::size_t i = 1; i + 1 < words.size(); ++i) {
        const std::string& word = words[i];
        // An option whose value may be left out (--require-device) takes the next word only
        // when that is no option, as the parser does.
        if (state.awaiting_value != nullptr && state.awaiting_value->value_optional &&
            word.starts_with('-'))
            state.awaiting_value = nullptr;
        if (state.awaiting_value != nullptr) {
            note_value(state, *state.awaiting_value, word);
            state.awaiting_value = nullptr;
            continue;
        }
        if (!state.options_ended && word == "--") {
            state.options_ended = true;
        } else if (!state.options_ended && word.size() > 1 && word.front() == '-') {
            const std::size_t equals = word.find('=');
            const std::string name = word.substr(0, equals);
            const OptionSpec* option = option_named(state, name);
            if (option == nullptr) continue;
            state.given.insert(option->name);
            if (equals != std::string::npos) {
                note_value(state, *option, std::string_view(word).substr(equals + 1));
            } else if (takes_value(*option)) {
                state.awaiting_value = option;
            }
        } else if (state.command.empty() &&
                   std::ranges::find(command_names(), word) != command_names().end()) {
            state.command = word;
        } else {
            ++state.positionals;
        }
    }
    return state;
}

void keep_matching(std::vector<std::string>& candidates, std::string_view typed) {
    std::erase_if(candidates, [typed](const std::string& c) { return !c.starts_with(typed); });
}

std::string devices_root(const LineState& state) {
    if (state.root.empty()) return "/";
    if (state.root == "~" || state.root.starts_with("~/")) {
        const char* home = std::getenv("HOME");
        if (home != nullptr) return home + state.root.substr(1);
    }
    return state.root;
}

CompletionAnswer value_answer(const OptionSpec& option, const LineState& state, std::string prefix,
                              std::string_view typed, const DeviceLister& devices) {
    CompletionAnswer answer{.prefix = std::move(prefix)};
    std::vector<std::string>& out = answer.candidates;
    switch (option.kind) {
        case ValueKind::file:
        case ValueKind::document:
            answer.directive = CompletionDirective::files;
            return answer;
        case ValueKind::directory:
            answer.directive = CompletionDirective::directories;
            return answer;
        case ValueKind::root:
            answer.directive = CompletionDirective::roots;
            return answer;
        case ValueKind::choice:
            out = option.choices;
            break;
        case ValueKind::doca_error:
            // The full names; once the typed text cannot start one, the short names too
            // (BAD_STATE), as `error` accepts both.
            for (const auto& entry : doca::error_entries()) {
                out.emplace_back(entry.name);
                if (!std::string_view("DOCA_ERROR_").starts_with(typed.substr(0, 11)))
                    out.emplace_back(entry.name.substr(std::string_view("DOCA_ERROR_").size()));
            }
            break;
        case ValueKind::function_name:
            out = doca::known_calls();
            break;
        case ValueKind::check_id:
            // A pattern id ("module-<name>") is not a value anyone types as it stands.
            for (const FindingInfo* info : check_catalog()) {
                if (info->id.find('<') == std::string_view::npos) out.emplace_back(info->id);
            }
            break;
        case ValueKind::schema_name:
            for (const auto& schema : contract::embedded_schemas()) out.emplace_back(schema.name);
            break;
        case ValueKind::source_name:
            for (const auto& source : kWaivableSources) out.emplace_back(source.name);
            break;
        case ValueKind::device:
            if (devices) out = devices(devices_root(state));
            break;
        default:
            break;  // free text or a number: nothing to offer, and no file names either
    }
    keep_matching(out, typed);
    std::ranges::sort(out);
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return answer;
}

CompletionAnswer options_answer(const LineState& state, std::string_view typed) {
    std::vector<const OptionSpec*> offered;
    if (state.command.empty()) {
        offered = global_options();
        for (const auto* option : own_options(command_names().front())) offered.push_back(option);
    } else {
        offered = global_options(state.command);
        for (const auto* option : own_options(state.command)) offered.push_back(option);
    }
    CompletionAnswer answer;
    for (const auto* option : offered) {
        if (option->positional || option->name == state.forced) continue;
        if (!option->repeatable && state.given.contains(option->name)) continue;
        answer.candidates.push_back(option->name);
        if (!option->short_name.empty()) answer.candidates.push_back(option->short_name);
    }
    keep_matching(answer.candidates, typed);
    std::ranges::sort(answer.candidates);
    answer.candidates.erase(std::unique(answer.candidates.begin(), answer.candidates.end()),
                            answer.candidates.end());
    return answer;
}

const OptionSpec* positional_at(std::string_view command, std::size_t index) {
    const OptionSpec* last = nullptr;
    for (const auto* option : own_options(command)) {
        if (!option->positional) continue;
        if (index == 0) return option;
        --index;
        last = option;
    }
    return last != nullptr && last->repeatable ? last : nullptr;
}

int usage(const char* message) {
    std::fprintf(stderr, "rdmi-probe: __complete: %s\n", message);  // NOLINT(cert-err33-c)
    return 2;
}

// The budget bounds the listing between entries, not a directory read or readlink that never
// returns (a --root on a hung mount): the TAB press would hang with it. SIGALRM's default
// action ends the process even in such a wait (a killable one, as NFS's), and the shell then
// completes nothing. Set here, whatever disposition or mask the shell passed on through exec.
constexpr std::chrono::seconds kListingDeadline{1};

void arm_listing_deadline() {
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    (void)::sigaction(SIGALRM, &action, nullptr);
    sigset_t alarm{};
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    (void)::sigprocmask(SIG_UNBLOCK, &alarm, nullptr);
    itimerval timer{};
    timer.it_value.tv_sec = kListingDeadline.count();
    (void)::setitimer(ITIMER_REAL, &timer, nullptr);
}

}  // namespace

std::string_view to_string(CompletionDirective directive) {
    switch (directive) {
        case CompletionDirective::files:
            return "files";
        case CompletionDirective::directories:
            return "dirs";
        case CompletionDirective::roots:
            return "roots";
        case CompletionDirective::words:
            break;
    }
    return "words";
}

std::string shell_dequote(std::string_view word) {
    std::string out;
    char quote = 0;
    for (std::size_t i = 0; i < word.size(); ++i) {
        const char c = word[i];
        if (quote == '\'') {
            if (c == '\'')
                quote = 0;
            else
                out += c;
        } else if (c == '\\' && i + 1 < word.size() &&
                   (quote == 0 ||
                    std::string_view("\"\\$`").find(word[i + 1]) != std::string_view::npos)) {
            out += word[++i];
        } else if (quote == '"' && c == '"') {
            quote = 0;
        } else if (quote == 0 && (c == '\'' || c == '"')) {
            quote = c;
        } else {
            out += c;
        }
    }
    return out;
}

CompletionAnswer complete_words(std::span<const std::string> words, const DeviceLister& devices) {
    if (words.empty()) return {};
    const LineState state = read_line(words);
    const std::string& typed = words.back();
    const bool value_left_out = state.awaiting_value != nullptr &&
                                state.awaiting_value->value_optional && typed.starts_with('-');
    if (state.awaiting_value != nullptr && !value_left_out)
        return value_answer(*state.awaiting_value, state, "", typed, devices);
    if (!state.options_ended && typed.starts_with("-")) {
        const std::size_t equals = typed.find('=');
        if (equals != std::string::npos) {
            const OptionSpec* option = option_named(state, typed.substr(0, equals));
            if (option == nullptr || !takes_value(*option)) return {};
            return value_answer(*option, state, typed.substr(0, equals + 1),
                                std::string_view(typed).substr(equals + 1), devices);
        }
        return options_answer(state, typed);
    }
    if (state.command.empty()) {
        CompletionAnswer answer;
        for (const auto name : command_names()) answer.candidates.emplace_back(name);
        keep_matching(answer.candidates, typed);
        return answer;
    }
    const OptionSpec* positional = positional_at(state.command, state.positionals);
    if (positional == nullptr) return {};
    return value_answer(*positional, state, "", typed, devices);
}

int run_complete_command(std::span<const std::string> args) {
    if (args.size() == 2 && args[0] == "--script") {
        const std::string script = completion_script(args[1]);
        if (script.empty()) return usage("--script takes bash or zsh");
        return write_text_to_stdout(script);
    }
    if (args.empty() || args[0] != "--")
        return usage("usage: rdmi-probe __complete -- WORD... | __complete --script bash|zsh");
    const CompletionAnswer answer = complete_words(args.subspan(1), [](const std::string& root) {
        arm_listing_deadline();
        return sysfs::rdma_device_names(root, sysfs::kDeviceNamesBudget);
    });
    std::string out(to_string(answer.directive));
    out += '\t';
    out += answer.prefix;
    out += '\n';
    for (const auto& candidate : answer.candidates) {
        out += candidate;
        out += '\n';
    }
    return write_text_to_stdout(out);
}

}  // namespace rdmi::cli
