// Pieces every contract emitter shares: the devices array, placeholders with gaps, and the
// final document with (or without) its x_rdmi_probe extension.
#pragma once

#include <string>

#include "contract/document.hpp"
#include "model/contract_facts.hpp"

namespace rdmi::json {

/// What x_rdmi_probe says about the run, beside the document's own bookkeeping.
struct RunFacts {
    std::string generated_at;
    std::string root = "/";
    bool live = true;
};

/// Fills `pointer` (an array) with one object per visible PCIe function of the inventory:
/// pcie_address, kind, [name,] representor_of, state, mtu — in the contract's field order
/// for doca-env (`with_name`) or collect-*-state (without).
void contract_devices(contract::Document& doc, const std::string& pointer,
                      const contract::ContractFacts& facts, bool with_name);

/// Sets a string field from a Sourced value; "" plus a gap when it is missing (the contract
/// allows no null there).
void contract_string(contract::Document& doc, const std::string& pointer,
                     const Sourced<std::string>& value);

/// Sets the `doca_version` field: doca_caps --version, else a named fallback.
void contract_doca_version(contract::Document& doc, const InstallFacts& install);

/// Adds x_rdmi_probe.pcie_link when the pcie-link probe ran: per NVIDIA function its trained
/// and maximum speed and width, its upstream port's maximum, what it can reach and the verdict,
/// each figure with its sysfs file or the reason it is missing (the report's pcie_link section,
/// one shape for both). The contract has no field for it, so it goes nowhere else.
void contract_pcie_link(contract::Document& doc, const contract::ContractFacts& facts);

/// Adds x_rdmi_probe.device_scope when the run was scoped with -d/--device: the functions the
/// document's devices were narrowed to and those it did not examine (report.device_scope's
/// shape).
void contract_device_scope(contract::Document& doc, const contract::ContractFacts& facts);

/// The document as JSON: the body, plus the x_rdmi_probe object unless `strict`. Takes the
/// document by value: pass an rvalue and its (possibly huge) body is moved, not copied.
contract::Json contract_json(contract::Document doc, const RunFacts& run, bool strict);

}  // namespace rdmi::json
