// `rdmi-probe state` (also `doca-collect-host-state` / `doca-collect-dpu-state`): the
// collect-*-state document of this side.
#include "cli/cli11.hpp"

#include "cli/command.hpp"
#include "cli/contract_command.hpp"
#include "cli/option_binding.hpp"
#include "report/contract_documents.hpp"

namespace rdmi::cli {
namespace {

class StateCommand final : public Command {
  public:
    [[nodiscard]] std::string_view name() const override { return "state"; }
    [[nodiscard]] std::string_view summary() const override {
        return "the collect-host-state / collect-dpu-state contract document of this side";
    }
    void add_options(CLI::App& sub) override {
        add_modelled(sub, name(), "--strict-contract", strict_);
        add_modelled(sub, name(), "--side", side_);
        add_modelled(sub, name(), "--device", devices_);
    }
    int run(const Session& session) override {
        std::optional<json::Side> forced;
        if (side_ == "host") forced = json::Side::host;
        if (side_ == "dpu") forced = json::Side::dpu;
        static constexpr ProbeId kStateProbes[] = {ProbeId::pcie_link};
        return run_contract_command(session, name(), kStateProbes, strict_, devices_,
                                    [forced](const contract::ContractFacts& facts) {
                                        return json::state_document(facts, forced);
                                    });
    }

  private:
    bool strict_ = false;
    std::string side_;
    std::vector<std::string> devices_;
};

}  // namespace

std::unique_ptr<Command> make_state_command() {
    return std::make_unique<StateCommand>();
}

}  // namespace rdmi::cli
