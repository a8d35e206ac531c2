// The shared run function of the contract subcommands.
#include "cli/contract_command.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "cli/exit_codes.hpp"
#include "core/json_common.hpp"
#include "os/self_exe.hpp"
#include "report/contract_common.hpp"
#include "report/contract_text.hpp"

namespace rdmi::cli {

int run_contract_command(
    const Session& session, std::initializer_list<ProbeId> extra, bool strict,
    const std::function<contract::Document(const contract::ContractFacts&)>& build) {
    Facts collected;
    collect(session.probe_context(), contract::kContractProbes, collected);
    collect(session.probe_context(), extra, collected);
    const bool with_capabilities =
        std::find(extra.begin(), extra.end(), ProbeId::doca_caps) != extra.end();
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

}  // namespace rdmi::cli
