// classify_host(): the heuristics of docs/reference/sysfs-formats.md#host-kind, each observation
// kept as evidence.
#include "host/host_kind.hpp"

#include "sysfs/attr_dir.hpp"

namespace rdmi::host {

// The sysfs layer's device model and parsers, used here by their short names.
using sysfs::DeviceInventory;
using sysfs::find_product;
using sysfs::Function;
using sysfs::FunctionKind;
using sysfs::FunctionRole;
using sysfs::is_representor;
using sysfs::provenance_of;
namespace {

constexpr std::string_view kBlueFieldKernelSuffix = "-bluefield";

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool is_bluefield_nic(const Function& fn) {
    if (fn.kind != FunctionKind::pf || !fn.device.ok()) return false;
    const auto product = find_product(*fn.device.value);
    return product && product->bluefield && product->role == FunctionRole::network;
}

bool is_management(const Function& fn) {
    return fn.device.ok() && sysfs::role_of(*fn.device.value) == FunctionRole::management;
}

std::string mode_command(const DeviceInventory& devices) {
    for (const auto& fn : devices.functions) {
        if (is_bluefield_nic(fn)) return "mlxconfig -d " + fn.name + " q INTERNAL_CPU_MODEL";
    }
    return {};
}

}  // namespace

std::string_view to_string(HostKind kind) {
    switch (kind) {
        case HostKind::host:
            return "host";
        case HostKind::bluefield:
            return "bluefield";
        case HostKind::unknown:
            return "unknown";
    }
    return "unknown";
}

std::string_view to_string(BfMode mode) {
    switch (mode) {
        case BfMode::dpu:
            return "dpu";
        case BfMode::smartnic:
            return "smartnic";
        case BfMode::switch_mode:
            return "switch";
    }
    return "dpu";
}

HostClassification classify_host(const PlatformFacts& platform, const DeviceInventory& devices) {
    HostClassification out;
    auto& ev = out.host_kind_evidence;
    bool markers = false;  // facts that exist only on the BlueField Arm side
    if (platform.architecture.ok()) {
        ev.push_back(
            {"architecture " + *platform.architecture.value, platform.architecture.source});
    }
    if (platform.bluefield_platform_devices.ok()) {
        for (const auto& name : *platform.bluefield_platform_devices.value) {
            ev.push_back({"BlueField ACPI platform device " + name,
                          Provenance{"sysfs", "/sys/bus/platform/devices/" + name}});
            markers = true;
        }
    }
    if (platform.bfb.ok()) {
        ev.push_back({"BFB release " + *platform.bfb.value, platform.bfb.source});
        markers = true;
    }
    if (platform.kernel_release.ok() &&
        ends_with(*platform.kernel_release.value, kBlueFieldKernelSuffix)) {
        ev.push_back({"BlueField kernel flavour " + *platform.kernel_release.value,
                      platform.kernel_release.source});
        markers = true;
    }
    bool management = false;
    for (const auto& fn : devices.functions) {
        if (is_bluefield_nic(fn)) {
            ev.push_back({"BlueField network function " + fn.name + " (" +
                              fn.product.value.value_or("BlueField") + ")",
                          fn.device.source});
        } else if (is_management(fn)) {
            ev.push_back(
                {"BlueField management function " + fn.name + " (seen from the host side of a DPU)",
                 fn.device.source});
            management = true;
        }
    }
    // A machine read from uname, /proc or an executable decides; one guessed from a library
    // directory does not overrule the BlueField-only markers.
    const bool arch_decides =
        platform.architecture.ok() && !(platform.architecture_from_layout && markers);
    if (arch_decides && *platform.architecture.value != "aarch64") {
        out.host_kind = HostKind::host;  // BlueField Arm cores are aarch64 only
    } else if (arch_decides) {
        // An Arm server with a BlueField card sees the same PCI ids; only the SoC markers tell.
        out.host_kind = markers ? HostKind::bluefield : HostKind::host;
    } else if (markers) {
        out.host_kind = HostKind::bluefield;
    } else if (management) {
        out.host_kind = HostKind::host;
    }

    out.bf_mode_command = mode_command(devices);
    if (out.host_kind != HostKind::bluefield) {
        if (out.bf_mode_command.empty()) {
            out.bf_mode_gap = Gap{GapReason::not_applicable, "no BlueField is visible here"};
        } else {
            out.bf_mode_gap =
                Gap{GapReason::permission_denied,
                    "from the host the BlueField's mode is readable only with privilege: " +
                        out.bf_mode_command + " (not run)"};
        }
        return out;
    }
    // In DPU (embedded CPU) mode the Arm side owns the eswitch: it has the host's
    // representors and the SFs of the OVS data path. In NIC mode it has neither.
    for (const auto& fn : devices.functions) {
        if (fn.kind == FunctionKind::sf) {
            out.bf_mode_evidence.push_back(
                {"scalable function " + fn.name, provenance_of(fn.sysfs_path)});
        }
    }
    for (const auto& nd : devices.netdevs) {
        if (is_representor(nd)) {
            out.bf_mode_evidence.push_back({"representor " + nd.name + " (" +
                                                std::string(to_string(nd.port_name->flavour)) + ")",
                                            nd.phys_port_name.source});
        }
    }
    const bool eswitch_owner = !out.bf_mode_evidence.empty();
    if (platform.bfb.ok())
        out.bf_mode_evidence.push_back({"BFB release " + *platform.bfb.value, platform.bfb.source});
    if (eswitch_owner) {
        out.bf_mode = BfMode::dpu;
        return out;
    }
    const std::string command = out.bf_mode_command.empty()
                                    ? "mlxconfig -d <pcie> q INTERNAL_CPU_MODEL"
                                    : out.bf_mode_command;
    out.bf_mode_gap = Gap{GapReason::permission_denied,
                          "no SF or representor is visible, so the mode cannot be told without "
                          "privilege: " +
                              command + " (not run)"};
    return out;
}

}  // namespace rdmi::host
