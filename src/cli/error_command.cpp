// `rdmi-probe error NAME|NUMBER [--call FUNCTION]`: what a DOCA error means, which layer it points
// at, and what to check on this machine first. Reads nothing from the system.
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
#include "doca_errors/doca_error_catalog.hpp"
#include "report/doca_error_output.hpp"
#include "text/fit_width.hpp"

namespace rdmi::cli {
namespace {

/// What a terminal or a log may show of user input: printable ASCII, at most 64 characters.
std::string shown(std::string_view text) {
    std::string out;
    for (char c : text.substr(0, 64)) {
        const auto u = static_cast<unsigned char>(c);
        out += std::isprint(u) != 0 ? c : '?';
    }
    if (text.size() > 64) out += "...";
    return out;
}

/// A C identifier of reasonable length: the only thing --call can name.
bool is_identifier(std::string_view text) {
    if (text.empty() || text.size() > 128 ||
        std::isdigit(static_cast<unsigned char>(text.front())) != 0)
        return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
}

class ErrorCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "error"; }
    [[nodiscard]] std::string_view summary() const override {
        return "explain a DOCA error: its layer, what to check here first, and the cause for a "
               "known call";
    }
    void add_options(CLI::App& sub) override {
        add_modelled(sub, name(), "ERROR", query_);
        add_modelled(sub, name(), "--call", call_);
        add_modelled(sub, name(), "--list-calls", list_calls_);
    }
    int run(const Session& session) override {
        const bool json = session.options().json;
        auto usage = [&](const std::string& message) { return session.output().fail(message); };
        if (list_calls_) {
            // Not Reader::human (the text quotes nothing probed): fitted to the width here.
            const std::string out =
                json ? report::doca_error_calls_json()
                     : text::fit_to_width(report::doca_error_calls_text(), session.style().width);
            return session.output().finish({out, Reader::machine}, kExitOk);
        }
        if (query_.empty()) return usage("give an ERROR (name or number) or --list-calls");
        if (!call_.empty() && !is_identifier(call_))
            return usage("--call " + shown(call_) + ": not a C function name");
        // A misspelt call would read as a call without causes: answered like an unknown error
        // name, with the closest calls that have causes.
        if (!call_.empty() && !doca::known_call(call_)) {
            std::string message = "--call " + shown(call_) +
                                  ": no known causes for this call (error --list-calls lists "
                                  "them); closest:";
            for (const auto& name : doca::closest_call_names(call_)) message += " " + name;
            return usage(message);
        }
        const auto entry = doca::find_error(query_);
        if (!entry) {
            std::string message =
                "\"" + shown(query_) + "\" is not a DOCA error name or number (0-31); closest:";
            for (const auto& name : doca::closest_error_names(query_)) message += " " + name;
            return usage(message);
        }
        report::DocaErrorQuery q{query_, *entry, std::nullopt, std::nullopt};
        if (!call_.empty()) {
            q.call = call_;
            q.cause = doca::find_call_cause(call_, entry->number);
        }
        const std::string out =
            json ? report::doca_error_json(q)
                 : text::fit_to_width(report::doca_error_text(q), session.style().width);
        // Not Reader::human: the text quotes the query through shown(), escaped already.
        return session.output().finish({out, Reader::machine}, kExitOk);
    }

  private:
    std::string query_;
    std::string call_;
    bool list_calls_ = false;
};

}  // namespace

std::unique_ptr<Command> make_error_command() {
    return std::make_unique<ErrorCommand>();
}

}  // namespace rdmi::cli
