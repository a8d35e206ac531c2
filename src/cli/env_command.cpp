// `rdmi-probe env` (also `doca-env`): the doca-env contract document.
#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/contract_command.hpp"
#include "report/contract_documents.hpp"

namespace rdmi::cli {
namespace {

class EnvCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "env"; }
    [[nodiscard]] std::string_view summary() const override {
        return "the doca-env contract document: versions, devices, libraries, drivers";
    }
    void add_options(CLI::App& sub) override {
        sub.add_flag("--strict-contract", strict_, "omit the x_rdmi_probe extension object");
    }
    int run(const Session& session) override {
        return run_contract_command(session, {}, strict_, &json::env_document);
    }

  private:
    bool strict_ = false;
};

}  // namespace

std::unique_ptr<Command> make_env_command() {
    return std::make_unique<EnvCommand>();
}

}  // namespace rdmi::cli
