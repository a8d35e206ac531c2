// The contract documents' view of the facts model: what env, state and caps are made from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "host/host_kind.hpp"
#include "host/platform.hpp"
#include "model/capabilities.hpp"
#include "model/device_scope.hpp"
#include "model/facts.hpp"
#include "model/registry.hpp"
#include "probes/install/install.hpp"
#include "probes/pcie_link/pcie_link.hpp"
#include "probes/samples.hpp"
#include "sysfs/inventory.hpp"

namespace rdmi::contract {

/// The facts the contract documents read, plain data.
struct ContractFacts {
    std::string generated_at;  ///< ISO-8601 UTC time of the run
    std::string root = "/";
    bool live = true;
    InstallFacts install;
    sysfs::DeviceInventory devices;
    host::PlatformFacts platform;
    host::HostClassification host;
    std::vector<SamplePath> samples;                  ///< by library name
    std::optional<Gap> samples_gap;                   ///< why <prefix>/samples could not be listed
    std::optional<CapabilityDiscovery> capabilities;  ///< only when asked for
    /// Each NVIDIA function's PCIe link (x_rdmi_probe.pcie_link of state and caps); only when
    /// the pcie-link probe was collected.
    std::optional<PcieLinkFacts> pcie_link;
    /// -d/--device: the functions `devices` was narrowed to, and those not examined.
    std::optional<DeviceScope> device_scope;
};

/// The probes every contract document needs (plus doca-caps for the capability snapshot, and
/// pcie-link for state and caps): ask the registry for these.
inline constexpr ProbeId kContractProbes[] = {ProbeId::install, ProbeId::system, ProbeId::samples};

/// The contract view of collected facts (install, system and samples must have run; doca-caps
/// too when `with_capabilities`; pcie-link's facts are taken when it ran), moved out of them.
/// Pure.
ContractFacts contract_facts(Facts facts, bool with_capabilities);

/// The DOCA version the contract's `doca_version` fields want, with where it came from.
struct ResolvedDocaVersion {
    Sourced<std::string> version;  ///< normalised ("3.3.0105"); missing when no source had one
    bool from_fallback = false;    ///< true when not from `doca_caps --version`
    std::vector<Gap> skipped;      ///< why the preferred sources were not used
};

/// `doca_caps --version` when it answered, else the runtime library, else doca-common.pc.
ResolvedDocaVersion resolve_doca_version(const InstallFacts& install);

}  // namespace rdmi::contract
