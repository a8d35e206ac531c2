// The devices probe's checks: the DPA verdict, drivers, uverbs access, what libibverbs and
// DOCA listed, and hugepages (info).
#include <algorithm>

#include "core/failed_check.hpp"
#include "probes/devices/devices.hpp"
#include "probes/devices/devices_findings.hpp"
#include "probes/devices/port_fix.hpp"
#include "sysfs/pci_ids.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

template <typename T>
std::string why(const Sourced<T>& value) {
    return value.gap ? value.gap->message : std::string("not read");
}

Provenance sysfs_source(const char* ref) {
    return {"sysfs", ref};
}

// libibverbs' and DOCA's device lists are asked of the live system only: under --root there is
// nothing to judge (info). True when `check` is complete.
bool listing_not_consulted(Check& check, bool live, std::string_view lister) {
    if (live) return false;
    check.message = std::string(lister) + " not consulted (not the live system)";
    return true;
}

// A device list that did not come: a skip, or a fail when the call hung past its timeout (an
// application would hang the same way). True when `check` is complete.
bool listing_missing(Check& check, const std::optional<Gap>& gap, std::string_view what) {
    if (!gap) return false;
    check.status = gap->reason == GapReason::timeout ? Status::fail : Status::skip;
    check.message = std::string(what) + ": " + gap->message;
    return true;
}

Check dpa_verdict(const DevicesFacts& facts) {
    Check check{
        finding::rdmi_dpa_device, Status::fail, "", "", {sysfs_source("/sys/bus/pci/devices")}};
    if (!facts.pci_bus_present) {
        check.status = Status::info;
        check.message = "devices not examined: no /sys/bus/pci/devices under this root";
        return check;
    }
    if (facts.summary.empty()) {
        // An entry that could not be examined may be the NVIDIA device: "none here" would then
        // be a guess, and installing nothing would follow it.
        const auto& unexamined = facts.inventory.unexamined_pci;
        if (!unexamined.empty()) {
            check.status = Status::skip;
            check.message = "cannot tell whether an NVIDIA networking device is here: " +
                            std::to_string(unexamined.size()) +
                            " /sys/bus/pci/devices entries could not be examined (" +
                            unexamined.front().message + (unexamined.size() > 1 ? "; ..." : "") +
                            ")";
            check.remediation =
                "look at the /sys/bus/pci/devices entries the message names (under --root: "
                "the tree may be damaged or partly copied; rerun on the live host)";
            return check;
        }
        check.message =
            "RDMI on the DPA is not possible here: no NVIDIA networking device "
            "(PCI vendor 0x15b3) in /sys/bus/pci/devices";
        check.remediation = "run on a host with a " + sysfs::dpa_products_text() +
                            " (the devices with a DPA), or on the BlueField's Arm side";
        // Nothing else the plan says helps RDMI on this host: it comes before installing DOCA.
        check.remedy = {"nvidia-device", true};
        return check;
    }
    std::vector<std::string> possible;
    std::vector<std::string> blocked;
    std::vector<std::string> without_dpa;
    // Functions whose DPA support no source confirms either way (a newer product, an id the
    // table does not know): their "no" would be a guess.
    std::vector<std::string> dpa_unknown;
    // What blocks the DPA-capable functions, for a fix that names only those causes.
    bool no_driver = false;
    bool no_rdma = false;
    std::vector<std::string> ports_down;
    bool any_dpa = false;
    bool any_rdma = false;
    bool doca_answered = false;
    for (const auto& row : facts.summary) {
        const bool dpa = row.dpa.ok() && row.dpa.value->support == sysfs::DpaSupport::yes;
        if (row.dpa.source.kind == "api") doca_answered = true;
        if (!dpa) {
            const std::string label =
                row.function + (row.product.empty() ? "" : " (" + row.product + ")");
            without_dpa.push_back(label);
            if (!row.dpa.ok() || row.dpa.value->support == sysfs::DpaSupport::unknown)
                dpa_unknown.push_back(label);
            continue;
        }
        any_dpa = true;
        any_rdma = any_rdma || !row.rdma_devices.empty();
        const auto* fn = facts.inventory.find_function(row.function);
        const bool driver = fn != nullptr && fn->driver.ok() && *fn->driver.value == "mlx5_core";
        const std::string label =
            row.function + (row.rdma_devices.empty() ? "" : " (" + join(row.rdma_devices) + ")");
        if (!driver) {
            no_driver = true;
            blocked.push_back(label + ": no driver (mlx5_core not bound)");
        } else if (row.rdma_devices.empty()) {
            no_rdma = true;
            blocked.push_back(label + ": no RDMA device (mlx5_ib not loaded?)");
        } else if (!row.port_active) {
            ports_down.insert(ports_down.end(), row.rdma_devices.begin(), row.rdma_devices.end());
            blocked.push_back(label + ": port " +
                              (row.port_state.empty() ? "state unknown" : row.port_state));
        } else {
            possible.push_back(label);
        }
    }
    if (doca_answered) {
        check.sources.push_back({"api", "doca_dpa_cap_is_supported"});
    } else {
        check.sources.push_back({"derived", "DPA inferred from the PCI device id"});
    }
    check.sources.push_back(sysfs_source("/sys/class/infiniband"));
    if (!possible.empty()) {
        check.status = Status::pass;
        check.message = "RDMI on the DPA is possible on: " + join(possible);
        return check;
    }
    if (!any_dpa && !dpa_unknown.empty()) {
        // The gate's --require-dpa skips the same case: neither says "no" where no source does.
        check.status = Status::skip;
        check.message = "cannot tell whether RDMI on the DPA is possible: no source says whether " +
                        join(dpa_unknown) + " has a DPA (the DPA-capable devices known are the " +
                        sysfs::dpa_products_text() + ")";
        check.remediation =
            "run on the live host with DOCA installed: DOCA answers for the device "
            "(doca_dpa_cap_is_supported)";
        return check;
    }
    if (!any_dpa) {
        const std::string products = sysfs::dpa_products_text();
        check.message = "RDMI on the DPA is not possible here: no DPA-capable device (found " +
                        join(without_dpa) + "; a DPA needs a " + products + ")";
        check.remediation = "run on a host with a " + products + " (the devices with a DPA)";
        check.remedy = {"dpa-device", true};
        return check;
    }
    if (const auto& unread = facts.inventory.rdma_class_gap; unread && !any_rdma) {
        // Not listing the RDMA devices is not the same as there being none.
        check.status = Status::skip;
        check.message = "cannot tell whether RDMI on the DPA is possible: " + unread->message;
        check.remediation = "rerun as a user that can read /sys/class/infiniband (or as root)";
        return check;
    }
    check.message = "RDMI on the DPA is not possible here: " + join(blocked, "; ");
    std::vector<std::string> steps;
    if (no_driver) steps.emplace_back("modprobe mlx5_core (as root)");
    if (no_rdma) steps.emplace_back("modprobe mlx5_ib (as root)");
    if (!ports_down.empty()) {
        std::string ports = port_down_fix(facts.inventory, ports_down);
        steps.push_back(ports.empty() ? "bring a port up (ibstat, mlxlink)" : std::move(ports));
    }
    check.remediation = join(steps, "; ");
    return check;
}

Check module_check(const FindingInfo& id, const char* name, const host::ModuleState& state,
                   bool devices_present) {
    Check check{
        id, Status::pass, "", "", {{"procfs", "/proc/modules"}, sysfs_source("/sys/module")}};
    if (!state.present.ok()) {
        // Nothing to judge when there is no device either (a container, a bare install tree).
        check.status = devices_present ? Status::skip : Status::info;
        check.message =
            std::string(name) + ": cannot tell whether it is loaded: " + why(state.present);
        return check;
    }
    if (*state.present.value) {
        check.message = std::string(name) + " is " + state.how;
        return check;
    }
    check.status = devices_present ? Status::fail : Status::info;
    check.message = std::string(name) + " is not loaded" +
                    (devices_present ? "" : " (no NVIDIA device here either)");
    if (devices_present) check.remediation = std::string("modprobe ") + name + " (as root)";
    return check;
}

Check uverbs_check(const DevicesFacts& facts, bool live) {
    Check check{finding::uverbs_access, Status::info, "", "", {{"file", "/dev/infiniband"}}};
    const bool rdma = !facts.inventory.rdma_devices.empty();
    if (!live && (!facts.platform.uverbs.ok() || facts.platform.uverbs.value->empty())) {
        // A captured or mounted root has no live /dev: device nodes are made at boot by udev,
        // so their absence there says nothing about the system the root came from.
        check.message =
            "/dev/infiniband: not judged under --root (device nodes exist only on "
            "the live system)";
        return check;
    }
    if (!facts.platform.uverbs.ok()) {
        check.status = rdma ? Status::fail : Status::info;
        check.message = "/dev/infiniband: " + why(facts.platform.uverbs);
        if (rdma) {
            check.remediation =
                "in a container, mount the host's /dev/infiniband (--device /dev/infiniband)";
        }
        return check;
    }
    const auto& nodes = *facts.platform.uverbs.value;
    if (nodes.empty()) {
        check.status = rdma ? Status::fail : Status::info;
        check.message = rdma ? "no /dev/infiniband/uverbs* although the kernel has RDMA devices "
                               "(a container without the device nodes, or ib_uverbs not loaded)"
                             : "no /dev/infiniband/uverbs* (no RDMA device)";
        if (rdma)
            check.remediation = "modprobe ib_uverbs; in a container pass --device /dev/infiniband";
        return check;
    }
    std::vector<std::string> denied;
    bool decided = true;
    for (const auto& node : nodes) {
        if (!node.accessible.ok()) {
            decided = false;
        } else if (!*node.accessible.value) {
            denied.push_back(node.path);
        }
    }
    if (!live || !decided) {
        check.message = std::to_string(nodes.size()) + " uverbs node(s); access not judged (" +
                        (live ? "unknown" : "not the live system") + ")";
        return check;
    }
    if (denied.empty()) {
        check.status = Status::pass;
        check.message = "all " + std::to_string(nodes.size()) +
                        " /dev/infiniband/uverbs* nodes are read-write for this user";
        return check;
    }
    check.message = "not read-write for this user: " + join(denied);
    return failed(std::move(check),
                  "add the user to the group owning /dev/infiniband/uverbs* (often 'rdma') or fix "
                  "the udev rule");
}

Check verbs_check(const DevicesFacts& facts, bool live) {
    const auto& verbs = facts.verbs;
    Check check{finding::verbs_devices, Status::info, "", "", {{"api", "ibv_get_device_list"}}};
    if (listing_not_consulted(check, live, "libibverbs")) return check;
    if (!verbs.library.ok()) {
        check.status = Status::skip;
        check.message = "libibverbs not loaded: " + why(verbs.library);
        check.remediation =
            verbs.library.gap && verbs.library.gap->reason == GapReason::not_installed
                ? "install libibverbs1 (Debian/Ubuntu) or libibverbs (RHEL)"
                : "";
        return check;
    }
    check.sources.push_back(verbs.library.source);
    if (listing_missing(check, verbs.gap, "libibverbs could not list devices")) return check;
    std::vector<std::string> sysfs_names;
    for (const auto& d : facts.inventory.rdma_devices) sysfs_names.push_back(d.name);
    std::vector<std::string> missing;
    for (const auto& name : sysfs_names) {
        if (std::none_of(verbs.devices.begin(), verbs.devices.end(),
                         [&](const VerbsDevice& d) { return d.name == name; }))
            missing.push_back(name);
    }
    if (verbs.devices.empty()) {
        if (sysfs_names.empty()) {
            check.message =
                "libibverbs lists no devices: the kernel has no RDMA device "
                "(/sys/class/infiniband is empty or absent)";
            return check;
        }
        const bool nodes = facts.platform.uverbs.ok() && !facts.platform.uverbs.value->empty();
        check.status = Status::fail;
        check.message =
            nodes
                ? "libibverbs lists none of " + join(sysfs_names) +
                      ": no provider for them (rdma-core's libmlx5 missing?)"
                : "libibverbs lists none of " + join(sysfs_names) +
                      ": /dev/infiniband is not accessible (a container without the device nodes?)";
        check.remediation = nodes ? "install rdma-core's provider package (ibverbs-providers)"
                                  : "pass --device /dev/infiniband to the container";
        return check;
    }
    std::vector<std::string> ok;
    std::vector<std::string> failed;
    for (const auto& d : verbs.devices) {
        if (d.gap) {
            failed.push_back(d.name + ": " + std::string(to_string(d.gap->reason)) + " (" +
                             d.gap->message + ")");
        } else {
            ok.push_back(d.name);
        }
    }
    check.status = failed.empty() ? Status::pass : Status::fail;
    check.message = "libibverbs opened " + (ok.empty() ? std::string("no device") : join(ok));
    if (!failed.empty()) check.message += "; failed: " + join(failed, "; ");
    if (!missing.empty()) check.message += "; no provider for " + join(missing);
    return check;
}

Check doca_check(const DevicesFacts& facts, bool live) {
    const auto& doca = facts.doca;
    Check check{finding::doca_devices, Status::info, "", "", {{"api", "doca_devinfo_create_list"}}};
    if (listing_not_consulted(check, live, "DOCA libraries")) return check;
    if (listing_missing(check, doca.gap, "DOCA device list not available")) return check;
    std::vector<std::string> dpa;
    for (const auto& d : doca.devices)
        if (d.dpa.value_or(false)) dpa.push_back(d.pci_address);
    check.message = "DOCA lists " + std::to_string(doca.devices.size()) + " device(s); " +
                    std::to_string(doca.predicates.size()) + " capability queries; DPA on: " +
                    (dpa.empty() ? std::string("none") : join(dpa));
    return check;
}

Check hugepages_check(const DevicesFacts& facts) {
    const auto& p = facts.platform;
    auto pool = [](const char* size, const host::HugepagePool& p2) {
        if (!p2.nr_hugepages.ok()) return std::string(size) + ": unknown";
        return std::string(size) + ": " + std::to_string(*p2.nr_hugepages.value) + " total, " +
               (p2.free_hugepages.ok() ? std::to_string(*p2.free_hugepages.value) : "?") + " free";
    };
    std::string mounts;
    if (p.hugetlbfs_mounts.ok()) {
        for (const auto& m : *p.hugetlbfs_mounts.value)
            mounts += (mounts.empty() ? "" : ", ") + m.mount_point;
    }
    return Check{finding::hugepages,
                 Status::info,
                 "hugepages " + pool("2M", p.hugepages_2m) + "; " + pool("1G", p.hugepages_1g) +
                     "; hugetlbfs " +
                     (mounts.empty() ? std::string("not mounted") : "at " + mounts),
                 "",
                 {sysfs_source("/sys/kernel/mm/hugepages"), {"procfs", "/proc/mounts"}}};
}

}  // namespace

std::vector<Check> device_checks(const DevicesFacts& facts, bool live) {
    const bool devices = !facts.summary.empty();
    return {dpa_verdict(facts),
            module_check(finding::driver_mlx5_core, "mlx5_core", facts.platform.mlx5_core, devices),
            module_check(finding::driver_mlx5_ib, "mlx5_ib", facts.platform.mlx5_ib, devices),
            uverbs_check(facts, live),
            verbs_check(facts, live),
            doca_check(facts, live),
            hugepages_check(facts)};
}

}  // namespace rdmi
