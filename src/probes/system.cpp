// probe_system(): the sysfs scans and the host classification, in that order.
#include "probes/system.hpp"

#include "sysfs/devices.hpp"

namespace rdmi {

SystemFacts probe_system(const ProbeContext& ctx) {
    SystemFacts facts;
    facts.inventory = sysfs::scan_devices(ctx.fs);
    facts.pci_bus_present = ctx.fs.stat("/sys/bus/pci/devices").ok();
    facts.platform = host::scan_platform(ctx.fs);
    facts.host = host::classify_host(facts.platform, facts.inventory);
    return facts;
}

}  // namespace rdmi
