// What env, state and caps share: collect the facts, build the document, print JSON or text.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/session.hpp"
#include "contract/document.hpp"
#include "model/contract_facts.hpp"

namespace rdmi::cli {

/// Collects the facts (kContractProbes and the document's `extra` probes: doca-caps makes the
/// capability discovery), builds the document with `build`, and emits it: JSON with --json
/// (without x_rdmi_probe when `strict`), else the human text. Returns the exit code (0 once the
/// document is written). With `devices` (-d/--device) the device facts are narrowed to those
/// functions and x_rdmi_probe.device_scope names the others; an unknown name is a usage error.
int run_contract_command(
    const Session& session, std::string_view command, std::span<const ProbeId> extra, bool strict,
    const std::vector<std::string>& devices,
    const std::function<contract::Document(const contract::ContractFacts&)>& build);

}  // namespace rdmi::cli
