// The contract documents as pure functions of the collected facts.
#pragma once

#include <optional>
#include <string>

#include "contract/document.hpp"
#include "model/contract_facts.hpp"

namespace rdmi::json {

/// Which side a collect-*-state document describes.
enum class Side { host, dpu };

/// The doca-env document.
contract::Document env_document(const contract::ContractFacts& facts);

/// collect-host-state or collect-dpu-state: `forced` (--side, or the helper name) wins over
/// the side the host classification implies.
contract::Document state_document(const contract::ContractFacts& facts, std::optional<Side> forced);

/// The capability-snapshot document (facts.capabilities must be set).
contract::Document caps_document(const contract::ContractFacts& facts);

/// Sets /bf_mode: the mode when the BlueField's Arm side revealed it, else null; a decision
/// from sysfs and an undecidable mode are both recorded as fallbacks from `mlxconfig`.
void contract_bf_mode(contract::Document& doc, const contract::ContractFacts& facts);

/// "host kind bluefield: architecture aarch64; ..." — the evidence, as one provenance ref.
std::string host_kind_evidence(const host::HostClassification& host);

}  // namespace rdmi::json
