// GateEvaluator: what each evaluation of check collects, and what a wait's poll keeps.
#include "check/gate_evaluator.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "model/registry.hpp"

namespace rdmi::gate {

bool needs_install(const Policy& policy) {
    return policy.min_version || policy.max_version || policy.exact_version ||
           !policy.modules.empty() || policy.require_consistent;
}

bool devices_pollable(const Policy& policy, const DevicesFacts& devices, bool live) {
    if (!needs_devices(policy) || needs_pcie_link(policy)) return false;
    if (!devices.pci_bus_present || !sysfs::inventory_pollable(devices.inventory)) return false;
    if (live && policy.require_dpa) {
        // The DPA answer DOCA gave (doca_dpa_cap_is_supported) marks its row's provenance.
        return std::all_of(devices.summary.begin(), devices.summary.end(),
                           [](const DeviceSummary& row) {
                               return row.kind == "SF" || row.dpa.source.kind == "api";
                           });
    }
    return true;
}

std::vector<Check> GateEvaluator::evaluate(const ProbeContext& ctx) {
    // A whole evaluation reads the tree as it is now: a directory descriptor or a walked link
    // kept from an earlier one may name what a retargeted link no longer leads to.
    ctx.fs.forget_resolved();
    auto checks = judge(ctx, nullptr);
    complete_ = true;
    return checks;
}

std::vector<Check> GateEvaluator::poll(const ProbeContext& ctx) {
    // As for a whole evaluation: a descriptor kept for `device` (a link to a directory) would
    // still name the function it led to before it was retargeted.
    ctx.fs.forget_resolved();
    if (devices_ && devices_pollable_ &&
        sysfs::poll_inventory(ctx.fs, devices_->inventory, memory_)) {
        // The summary rows are what the gate judges: joined again over the fresh port states,
        // with DOCA's and verbs' answers of the last whole evaluation.
        devices_->summary = summarize_devices(devices_->inventory, devices_->verbs, devices_->doca);
        complete_ = false;
        return judge(ctx, &*devices_);
    }
    return evaluate(ctx);
}

std::vector<Check> GateEvaluator::judge(const ProbeContext& ctx, const DevicesFacts* polled) {
    const Policy& policy = *policy_;
    Facts collected;
    GateFacts facts;
    facts.live = live_;
    // The devices' live half (libibverbs in the worker child) begins before the install and
    // symbols reads, and overlaps them.
    if (polled == nullptr && needs_devices(policy)) {
        const std::array devices_only{ProbeId::devices};
        start_live_halves(ctx, devices_only, collected);
    }
    // A poll collects the install probe only for the requirements that judge it; a whole
    // evaluation always does (the DOCA layer of the devices probe reads it too).
    if (polled == nullptr || needs_install(policy)) {
        collect(ctx, {ProbeId::install}, collected);
        facts.install = &*collected.install;
    }
    if (needs_symbols(policy)) {
        SymbolsRequest request;
        request.application = policy.app;
        request.user_fs = user_fs_;
        request.accepted_experimental = policy.allow_experimental;
        // The audit covers doca_rdmi_* by default; a required name outside it widens it.
        for (const auto* names : {&policy.symbols, &policy.stable}) {
            for (const auto& name : *names) {
                if (!name.starts_with("doca_rdmi_")) request.prefix = "";
            }
        }
        ProbeRequest wanted;
        wanted.symbols = std::move(request);
        collect(ctx, {ProbeId::symbols}, collected, wanted);
        facts.symbols = &*collected.symbols;
    }
    if (polled != nullptr) {
        facts.devices = polled;
    } else if (needs_devices(policy)) {
        collect(ctx, {ProbeId::devices}, collected);
        devices_ = std::move(*collected.devices);
        devices_pollable_ = devices_pollable(policy, *devices_, live_);
        facts.devices = &*devices_;
    }
    if (needs_pcie_link(policy)) {
        // Reads the inventory the devices probe's system facts already hold: the registry
        // runs system once.
        collect(ctx, {ProbeId::pcie_link}, collected);
        facts.pcie_link = &*collected.pcie_link;
        facts.pci_bus_present = collected.system->pci_bus_present;
    }
    if (needs_integrity(policy)) {
        ProbeRequest wanted;
        wanted.integrity = true;
        collect(ctx, {ProbeId::install_integrity}, collected, wanted);
        facts.integrity = &*collected.install_integrity;
    }
    return gate::evaluate(policy, facts);
}

}  // namespace rdmi::gate
