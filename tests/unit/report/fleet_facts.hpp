// Facts for the fleet emitters' tests (Prometheus, NFD): built by hand, so each test states
// exactly which fact it is about.
#pragma once

#include <string>
#include <vector>

#include "core/version.hpp"
#include "model/facts.hpp"
#include "model/registry.hpp"

namespace rdmi::test {

/// Marks `id` as collected, so that report_checks() asks its row for checks.
inline void mark_collected(Facts& facts, ProbeId id) {
    facts.collected |= std::uint32_t{1} << static_cast<unsigned>(id);
}

/// An install whose doca-common.pc says `version` ("" for none), with these checks.
inline InstallFacts install_with(const std::string& version, std::vector<Check> checks = {}) {
    InstallFacts install;
    VersionSource common;
    common.name = "doca-common.pc";
    if (!version.empty()) {
        common.raw = Sourced<std::string>::of(version, {"pkg-config", "doca-common"});
        common.version = parse_doca_version(version);
    } else {
        common.raw = Sourced<std::string>::missing(Gap{GapReason::not_found, "no doca-common.pc"},
                                                   {"pkg-config", "doca-common"});
    }
    install.stack_versions.sources.push_back(common);
    install.checks = std::move(checks);
    return install;
}

/// A check with a fixed id.
inline Check check(const FindingInfo& finding, Status status) {
    return Check{FindingId(finding), status, "message", "", {}};
}

/// One summary row of a PCI function.
inline DeviceSummary function_row(const std::string& pci, std::vector<std::string> ibdevs,
                                  sysfs::DpaSupport dpa, bool port_active = false) {
    DeviceSummary row;
    row.function = pci;
    row.kind = "PF";
    row.rdma_devices = std::move(ibdevs);
    row.port_active = port_active;
    row.dpa =
        Sourced<sysfs::DpaCapability>::of(sysfs::DpaCapability{dpa, ""}, {"derived", "device id"});
    return row;
}

}  // namespace rdmi::test
