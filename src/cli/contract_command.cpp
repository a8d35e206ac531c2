// The contract subcommands' shared run function, and `env` and `caps`, which are nothing else.
#include "cli/contract_command.hpp"

#include <algorithm>
#include <vector>

#include <spdlog/spdlog.h>
#include "cli/cli11.hpp"

#include "cli/command.hpp"
#include "cli/device_scope_option.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_binding.hpp"
#include "cli/run_time.hpp"
#include "json/json_common.hpp"
#include "os/self_exe.hpp"
#include "report/contract_common.hpp"
#include "report/contract_documents.hpp"
#include "report/contract_text.hpp"

namespace rdmi::cli {

int run_contract_command(
    const Session& session, std::string_view command, std::span<const ProbeId> extra, bool strict,
    const std::vector<std::string>& devices,
    const std::function<contract::Document(const contract::ContractFacts&)>& build) {
    Facts collected;
    ProbeRequest request;
    if (auto refused =
            scope_to_devices(session, command, devices, collected, request, OnProbeError::raise))
        return *refused;
    collect(session.probe_context(), contract::kContractProbes, collected, request);
    collect(session.probe_context(), extra, collected, request);
    session.release_worker();
    const bool with_capabilities =
        std::find(extra.begin(), extra.end(), ProbeId::doca_caps) != extra.end();
    collected.run.root = session.fs().root();
    collected.run.live = session.live();
    collected.run.generated_at = generation_time(session.env());
    const contract::ContractFacts facts =
        contract::contract_facts(std::move(collected), with_capabilities);
    contract::Document doc = build(facts);
    json::contract_device_scope(doc, facts);
    const json::RunFacts run{facts.generated_at, facts.root, facts.live};
    std::string out;
    if (session.options().json) {
        out = json::dump(json::contract_json(std::move(doc), run, strict));
    } else {
        auto exe = self_executable_path();
        out = text::contract_document(session.style(), doc,
                                      exe ? *exe : "unknown: " + exe.gap().message, run);
    }
    return session.output().finish(out, kExitOk);
}

namespace {

using Build = contract::Document (*)(const contract::ContractFacts&);

// A contract subcommand whose only option is --strict-contract.
class PlainContractCommand final : public Command {
  public:
    PlainContractCommand(std::string_view name, std::string_view summary,
                         std::vector<ProbeId> extra, Build build)
        : name_(name), summary_(summary), extra_(std::move(extra)), build_(build) {}
    [[nodiscard]] std::string_view name() const override { return name_; }
    [[nodiscard]] std::string_view summary() const override { return summary_; }
    void add_options(CLI::App& sub) override {
        add_modelled(sub, name_, "--strict-contract", strict_);
        add_modelled(sub, name_, "--device", devices_);
    }
    int run(const Session& session) override {
        return run_contract_command(session, name_, extra_, strict_, devices_, build_);
    }

  private:
    std::string_view name_;
    std::string_view summary_;
    std::vector<ProbeId> extra_;  ///< probes beyond kContractProbes
    Build build_;
    bool strict_ = false;
    std::vector<std::string> devices_;
};

}  // namespace

// `rdmi-probe env` (also `doca-env`): the doca-env contract document.
std::unique_ptr<Command> make_env_command() {
    return std::make_unique<PlainContractCommand>(
        "env", "the doca-env contract document: versions, devices, libraries, drivers",
        std::vector<ProbeId>{}, &json::env_document);
}

// `rdmi-probe caps` (also `doca-capability-snapshot`): the capability-snapshot document.
std::unique_ptr<Command> make_caps_command() {
    return std::make_unique<PlainContractCommand>(
        "caps", "the capability-snapshot contract document: DOCA capabilities per device",
        std::vector<ProbeId>{ProbeId::doca_caps, ProbeId::pcie_link}, &json::caps_document);
}

}  // namespace rdmi::cli
