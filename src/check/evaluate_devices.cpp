// The hardware requirements: a device (any, or a named one), DPA capability, an active port.
#include <algorithm>
#include <string>

#include "check/evaluate.hpp"
#include "check/gate_findings.hpp"
#include "probes/devices/port_fix.hpp"
#include "sysfs/pci_ids.hpp"
#include "text/text.hpp"

namespace rdmi::gate {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::string label(const DeviceSummary& row) {
    std::string out = row.function;
    if (!row.rdma_devices.empty()) out += " (" + join(row.rdma_devices) + ")";
    return out;
}

std::string labels(const std::vector<const DeviceSummary*>& rows) {
    std::vector<std::string> names;
    for (const auto* row : rows) names.push_back(label(*row));
    return join(names);
}

std::string wanted(const std::string& which) {
    return which.empty() ? "NVIDIA RDMA/BlueField device" : "device " + which;
}

Check device_check(const DevicesFacts& devices, const std::string& which,
                   const std::vector<const DeviceSummary*>& rows) {
    Check check{finding::device, Status::pass, "", "", {{"sysfs", "/sys/bus/pci/devices"}}};
    if (!rows.empty()) {
        check.message = "found " + labels(rows);
        return check;
    }
    check.status = Status::fail;
    check.message = "no " + wanted(which) + " found";
    if (!which.empty() && !devices.summary.empty()) {
        std::vector<const DeviceSummary*> all;
        for (const auto& row : devices.summary) all.push_back(&row);
        check.message += " (present: " + labels(all) + ")";
    }
    check.remediation = "run on a host with the device, or check that mlx5_core is loaded";
    return check;
}

Check dpa_check(const std::string& which, const std::vector<const DeviceSummary*>& rows) {
    Check check{finding::dpa, Status::pass, "", "", {{"derived", "devices"}}};
    if (rows.empty()) {
        check.status = Status::fail;
        check.message = "no " + wanted(which) + " found, so no DPA";
        check.remediation =
            "run on a host with a " + sysfs::dpa_products_text() + " (the devices with a DPA)";
        return check;
    }
    std::vector<std::string> yes;
    std::vector<std::string> unknown;
    for (const auto* row : rows) {
        if (row->dpa.value && row->dpa.value->support == sysfs::DpaSupport::yes) {
            yes.push_back(row->function);
        } else if (!row->dpa.value || row->dpa.value->support == sysfs::DpaSupport::unknown) {
            unknown.push_back(row->function + ": " +
                              (row->dpa.gap     ? row->dpa.gap->message
                               : row->dpa.value ? row->dpa.value->detail
                                                : std::string("unknown")));
        }
    }
    if (!yes.empty()) {
        check.message = "DPA supported on " + join(yes);
        return check;
    }
    if (!unknown.empty()) {
        check.status = Status::skip;
        check.message = "DPA support cannot be determined: " + join(unknown);
        check.remediation =
            "rerun on the live host with DOCA installed (doca_dpa_cap_is_supported)";
        return check;
    }
    check.status = Status::fail;
    check.message = "no DPA on " + labels(rows);
    check.remediation = "DOCA RDMI needs a DPA, which only a " + sysfs::dpa_products_text() +
                        " has: run on a host with one";
    return check;
}

// The rdma devices of `rows`, for the fix that names their ports.
std::vector<std::string> rdma_devices_of(const std::vector<const DeviceSummary*>& rows) {
    std::vector<std::string> out;
    for (const auto* row : rows)
        out.insert(out.end(), row->rdma_devices.begin(), row->rdma_devices.end());
    return out;
}

Check port_check(const DevicesFacts& devices, const std::string& which,
                 const std::vector<const DeviceSummary*>& rows, const std::optional<Gap>& unread) {
    Check check{finding::port_active, Status::pass, "", "", {{"sysfs", "/sys/class/infiniband"}}};
    std::vector<std::string> active;
    std::vector<std::string> other;
    for (const auto* row : rows) {
        if (row->rdma_devices.empty()) continue;
        (row->port_active ? active : other)
            .push_back(join(row->rdma_devices) + " " +
                       (row->port_state.empty() ? "no port state" : row->port_state));
    }
    if (!active.empty()) {
        check.message = "active: " + join(active);
        return check;
    }
    if (unread && other.empty()) {
        // The ports were never seen: unknown, not down.
        check.status = Status::skip;
        check.message = "cannot be checked: " + unread->message;
        check.remediation = "rerun as a user that can read /sys/class/infiniband (or as root)";
        return check;
    }
    check.status = Status::fail;
    check.message =
        other.empty() ? "no RDMA port on " + wanted(which) : "no port is ACTIVE: " + join(other);
    if (other.empty()) {
        check.remediation = "load mlx5_ib so the device has RDMA ports";
    } else {
        check.remediation = port_down_fix(devices.inventory, rdma_devices_of(rows));
        if (check.remediation.empty())
            check.remediation = "connect the cable / bring the link up (ibstat, mlxlink)";
    }
    return check;
}

bool has_dpa(const DeviceSummary& row) {
    return row.dpa.value && row.dpa.value->support == sysfs::DpaSupport::yes;
}

// --require-dpa with --require-port-active: both must hold on one device, since an RDMI DPA
// kernel posts through the port of the function whose DPA runs it. The port is judged only on
// the DPA-capable functions; an active port elsewhere is named as the closest miss.
Check one_device_port_check(const DevicesFacts& devices, const std::string& which,
                            const std::vector<const DeviceSummary*>& rows,
                            const std::optional<Gap>& unread) {
    std::vector<const DeviceSummary*> dpa_rows;
    for (const auto* row : rows) {
        if (has_dpa(*row)) dpa_rows.push_back(row);
    }
    if (dpa_rows.empty()) return port_check(devices, which, rows, unread);  // dpa_check says why
    std::vector<std::string> both;
    for (const auto* row : dpa_rows) {
        if (row->port_active) both.push_back(label(*row));
    }
    if (!both.empty()) {
        Check check = port_check(devices, which, dpa_rows, unread);
        check.message = "DPA and an ACTIVE port on one device: " + join(both);
        return check;
    }
    Check check = port_check(devices, which, dpa_rows, unread);
    if (check.status == Status::skip) return check;  // the ports were never seen
    std::vector<std::string> elsewhere;
    for (const auto* row : rows) {
        if (!has_dpa(*row) && row->port_active) elsewhere.push_back(label(*row));
    }
    check.message =
        "no device has both DPA and an ACTIVE port; the DPA-capable ones: " + labels(dpa_rows) +
        " (" + check.message + ")";
    if (!elsewhere.empty())
        check.message += "; an ACTIVE port only on " + join(elsewhere) + ", which has no DPA";
    // port_check's fix already names each DPA-capable port and its cause.
    check.remediation = "bring up the link of a DPA-capable function (" + labels(dpa_rows) +
                        "): " + check.remediation;
    return check;
}

}  // namespace

std::vector<const DeviceSummary*> select_devices(const DevicesFacts& devices,
                                                 const std::string& which) {
    std::vector<const DeviceSummary*> rows;
    for (const auto& row : devices.summary) {
        if (which.empty() || row.function == which || contains(row.rdma_devices, which) ||
            contains(row.netdevs, which))
            rows.push_back(&row);
    }
    return rows;
}

std::vector<Check> devices_gate(const Policy& policy, const DevicesFacts& devices, bool live) {
    std::vector<Check> checks;
    const std::string which = policy.device.value_or("");
    const auto rows = select_devices(devices, which);
    if (!devices.pci_bus_present) {
        const std::string why = std::string("cannot be checked: no /sys/bus/pci/devices ") +
                                (live ? "on this system (no device access)" : "under --root");
        const std::string fix = "run on the host that has the device (or a root with its /sys)";
        if (policy.device) checks.push_back({finding::device, Status::skip, why, fix, {}});
        if (policy.require_dpa) checks.push_back({finding::dpa, Status::skip, why, fix, {}});
        if (policy.require_port_active)
            checks.push_back({finding::port_active, Status::skip, why, fix, {}});
        return checks;
    }
    if (policy.device) checks.push_back(device_check(devices, which, rows));
    if (policy.require_dpa) checks.push_back(dpa_check(which, rows));
    if (policy.require_port_active) {
        const auto& unread = devices.inventory.rdma_class_gap;
        if (policy.require_dpa) {
            checks.push_back(one_device_port_check(devices, which, rows, unread));
        } else {
            checks.push_back(port_check(devices, which, rows, unread));
        }
    }
    return checks;
}

}  // namespace rdmi::gate
