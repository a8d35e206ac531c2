// Everything the contract documents are made from, collected once per run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "contract/capabilities.hpp"
#include "probes/context.hpp"
#include "probes/install.hpp"
#include "sysfs/host_kind.hpp"
#include "sysfs/inventory.hpp"
#include "sysfs/platform.hpp"

namespace rdmi::contract {

/// One library's samples directory (<prefix>/samples/doca_<lib>) that exists.
struct SamplePath {
    std::string library;  ///< pkg-config name ("doca-rdma")
    std::string path;     ///< in-root directory
};

/// The collected facts, plain data.
struct ContractFacts {
    std::string generated_at;  ///< ISO-8601 UTC time of the run
    std::string root = "/";
    bool live = true;
    InstallFacts install;
    sysfs::DeviceInventory devices;
    sysfs::PlatformFacts platform;
    sysfs::HostClassification host;
    std::vector<SamplePath> samples;                  ///< by library name
    std::optional<Gap> samples_gap;                   ///< why <prefix>/samples could not be listed
    std::optional<CapabilityDiscovery> capabilities;  ///< only when asked for
};

/// Runs the install probe, the sysfs scans and the host classification; the capability
/// discovery too when `with_capabilities`.
ContractFacts collect_contract_facts(const ProbeContext& ctx, bool with_capabilities);

/// Every public DOCA library of the install: the doca-* modules of DOCA's pc dir and the RDMI
/// stack modules, by name, each once.
std::vector<const ModuleFacts*> public_libraries(const InstallFacts& install);

/// The DOCA version the contract's `doca_version` fields want, with where it came from.
struct ResolvedDocaVersion {
    Sourced<std::string> version;  ///< normalised ("3.3.0105"); missing when no source had one
    bool from_fallback = false;    ///< true when not from `doca_caps --version`
    std::vector<Gap> skipped;      ///< why the preferred sources were not used
};

/// `doca_caps --version` when it answered, else the runtime library, else doca-common.pc.
ResolvedDocaVersion resolve_doca_version(const InstallFacts& install);

}  // namespace rdmi::contract
