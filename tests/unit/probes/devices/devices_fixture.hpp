// The devices probe's facts over a generated sysfs fixture root, joined as the probe joins them
// (no verbs, no DOCA): what the device tests of several folders start from.
#pragma once

#include "host/platform.hpp"
#include "probes/devices/devices.hpp"
#include "sysfs/devices.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi::test {

/// The scan, platform, host kind and summary of the sysfs fixture `scenario`.
inline DevicesFacts devices_facts_of(const char* scenario) {
    auto fs = sysfs_fixture(scenario);
    DevicesFacts facts;
    facts.inventory = sysfs::scan_devices(fs);
    facts.platform = host::scan_platform(fs);
    facts.host = host::classify_host(facts.platform, facts.inventory);
    facts.summary = summarize_devices(facts.inventory, facts.verbs, facts.doca);
    return facts;
}

}  // namespace rdmi::test
