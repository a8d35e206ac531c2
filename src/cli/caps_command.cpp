// `rdmi-probe caps` (also `doca-capability-snapshot`): the capability-snapshot document.
#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/contract_command.hpp"
#include "report/contract_documents.hpp"

namespace rdmi::cli {
namespace {

class CapsCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "caps"; }
    [[nodiscard]] std::string_view summary() const override {
        return "the capability-snapshot contract document: DOCA capabilities per device";
    }
    void add_options(CLI::App& sub) override {
        sub.add_flag("--strict-contract", strict_, "omit the x_rdmi_probe extension object");
    }
    int run(const Session& session) override {
        return run_contract_command(session, {ProbeId::doca_caps, ProbeId::pcie_link}, strict_,
                                    &json::caps_document);
    }

  private:
    bool strict_ = false;
};

}  // namespace

std::unique_ptr<Command> make_caps_command() {
    return std::make_unique<CapsCommand>();
}

}  // namespace rdmi::cli
