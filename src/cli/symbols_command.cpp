// `rdmi-probe symbols`: the EXPERIMENTAL/stable/deprecated audit of a library, and with --check
// what an application needs from it.
#include "cli/cli11.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
#include "cli/user_path.hpp"
#include "model/facts.hpp"
#include "probes/symbols/symbols.hpp"
#include "report/symbols_json.hpp"
#include "report/symbols_text.hpp"
#include "text/text.hpp"

namespace rdmi::cli {
namespace {

struct SymbolsOptions {
    std::string module;
    std::string lib;
    std::string prefix;
    std::string headers;
    std::string check;
    std::vector<std::string> allow;
};

// The gap says pkg-config has no such module ("NAME: NAME.pc not found; searched ..."): DOCA is
// not installed here. A file the user named (--lib, --check) that is missing is bad input, and
// so is a module whose .pc names a library that is not there (a broken install).
bool module_absent(const SymbolsRequest& request, const Gap& gap) {
    const std::string module = request.module.empty()
                                   ? modelled_option("symbols", "--module").default_value
                                   : request.module;
    return request.library.empty() && gap.reason == GapReason::not_found &&
           gap.message.starts_with(module + ": " + module + ".pc not found");
}

class SymbolsCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "symbols"; }
    [[nodiscard]] std::string_view summary() const override {
        return "EXPERIMENTAL/stable/deprecated audit of doca_rdmi_* (or --module/--lib); "
               "--check APP audits what an application needs";
    }

    void add_options(CLI::App& sub) override {
        add_modelled(sub, name(), "--module", opts_.module);
        add_modelled(sub, name(), "--lib", opts_.lib);
        prefix_option_ = add_modelled(sub, name(), "--prefix", opts_.prefix);
        add_modelled(sub, name(), "--headers", opts_.headers);
        add_modelled(sub, name(), "--check", opts_.check);
        add_modelled(sub, name(), "--allow-experimental", opts_.allow);
    }

    int run(const Session& session) override {
        SymbolsRequest request;
        request.module = opts_.module;
        // The paths the user names are paths on this machine, relative to the working
        // directory, even under --root (to name a file inside the root, pass ROOT/...):
        // messages then name the file that was really tried.
        request.library = user_path(opts_.lib);
        if (prefix_option_ != nullptr && prefix_option_->count() > 0) request.prefix = opts_.prefix;
        request.headers_dir = user_path(opts_.headers);
        request.application = user_path(opts_.check);
        auto user_fs = RootedFs::open("/", RootedFs::Resolution::kernel, true, session.link_rule());
        if (!user_fs) return session.output().fail(user_fs.gap().message);
        request.user_fs = &*user_fs;
        auto accepted = experimental_allow_list(opts_.allow, session.link_rule());
        if (!accepted) return session.output().fail(accepted.gap().message);
        request.accepted_experimental = std::move(accepted).value();

        auto facts = probe_symbols(session.probe_context(), request);
        if (!facts) {
            // No DOCA here (the module's .pc, or the library it names, is absent): nothing
            // could be checked, which is a skip (3), not bad input (2).
            const int code = module_absent(request, facts.gap()) ? kExitSkipped : kExitUsage;
            return session.output().fail(facts.gap().message, Reader::as_asked, code);
        }
        const RunInfo run = session.run_info();
        // The exit code says whether the document's "result" is fail (docs/commands.md: symbols).
        const int exit_code =
            exit_code_for(overall_status(facts->checks), ExitRule{.skip_exits_ok = true});
        if (session.options().json) {
            // Streamed: a 100k-symbol document is 57 MB of text, never held whole.
            return session.output().finish(Document::streamed([&](const json::DocumentSink& sink) {
                                               return json::write_symbols_document(*facts, run,
                                                                                   sink);
                                           }),
                                           exit_code);
        }
        return session.output().finish(text::symbols(session.style(), *facts), exit_code);
    }

  private:
    SymbolsOptions opts_;
    CLI::Option* prefix_option_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> make_symbols_command() {
    return std::make_unique<SymbolsCommand>();
}

}  // namespace rdmi::cli
