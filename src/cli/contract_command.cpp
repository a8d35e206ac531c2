// The contract subcommands' shared run function, and `env` and `caps`, which are nothing else.
#include "cli/contract_command.hpp"

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "core/json_common.hpp"
#include "os/self_exe.hpp"
#include "report/contract_common.hpp"
#include "report/contract_documents.hpp"
#include "report/contract_text.hpp"

namespace rdmi::cli {

int run_contract_command(
    const Session& session, bool with_capabilities, bool strict,
    const std::function<contract::Document(const contract::ContractFacts&)>& build) {
    Facts collected;
    collect(session.probe_context(), contract::kContractProbes, collected);
    if (with_capabilities) collect(session.probe_context(), {ProbeId::doca_caps}, collected);
    collected.run.root = session.fs().root();
    collected.run.live = session.live();
    collected.run.generated_at = generation_time(session.env());
    const contract::ContractFacts facts =
        contract::contract_facts(std::move(collected), with_capabilities);
    contract::Document doc = build(facts);
    const json::RunFacts run{facts.generated_at, facts.root, facts.live};
    std::string out;
    if (session.options().json) {
        out = json::dump(json::contract_json(std::move(doc), run, strict));
    } else {
        auto exe = self_executable_path();
        out = text::contract_document(session.style(), doc,
                                      exe ? *exe : "unknown: " + exe.gap().message, run);
    }
    return session.finish(out, kExitOk);
}

namespace {

using Build = contract::Document (*)(const contract::ContractFacts&);

// A contract subcommand whose only option is --strict-contract.
class PlainContractCommand final : public Command {
  public:
    PlainContractCommand(std::string_view name, std::string_view summary, bool with_capabilities,
                         Build build)
        : name_(name), summary_(summary), with_capabilities_(with_capabilities), build_(build) {}
    [[nodiscard]] std::string_view name() const override { return name_; }
    [[nodiscard]] std::string_view summary() const override { return summary_; }
    void add_options(CLI::App& sub) override {
        sub.add_flag("--strict-contract", strict_, "omit the x_rdmi_probe extension object");
    }
    int run(const Session& session) override {
        return run_contract_command(session, with_capabilities_, strict_, build_);
    }

  private:
    std::string_view name_;
    std::string_view summary_;
    bool with_capabilities_;
    Build build_;
    bool strict_ = false;
};

}  // namespace

// `rdmi-probe env` (also `doca-env`): the doca-env contract document.
std::unique_ptr<Command> make_env_command() {
    return std::make_unique<PlainContractCommand>(
        "env", "the doca-env contract document: versions, devices, libraries, drivers", false,
        &json::env_document);
}

// `rdmi-probe caps` (also `doca-capability-snapshot`): the capability-snapshot document.
std::unique_ptr<Command> make_caps_command() {
    return std::make_unique<PlainContractCommand>(
        "caps", "the capability-snapshot contract document: DOCA capabilities per device", true,
        &json::caps_document);
}

}  // namespace rdmi::cli
