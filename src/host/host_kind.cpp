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

// The architecture, and the facts that exist only on the BlueField Arm side (its ACPI platform
// devices, a BFB release, the BlueField kernel flavour), as evidence; true when any of the
// latter is there.
bool note_arm_side_markers(const PlatformFacts& platform, std::vector<Evidence>& ev) {
    bool markers = false;
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
    return markers;
}

// The BlueField PCI functions in sight, as evidence; true when one is a management function,
// which only the host side of a DPU sees.
bool note_bluefield_functions(const DeviceInventory& devices, std::vector<Evidence>& ev) {
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
    return management;
}

HostKind host_kind_of(const PlatformFacts& platform, bool markers, bool management) {
    // A machine read from uname, /proc or an executable decides; one guessed from a library
    // directory does not overrule the BlueField-only markers.
    const bool arch_decides =
        platform.architecture.ok() && !(platform.architecture_from_layout && markers);
    if (arch_decides && *platform.architecture.value != "aarch64")
        return HostKind::host;  // BlueField Arm cores are aarch64 only
    // An Arm server with a BlueField card sees the same PCI ids; only the SoC markers tell.
    if (arch_decides) return markers ? HostKind::bluefield : HostKind::host;
    if (markers) return HostKind::bluefield;
    if (management) return HostKind::host;
    return HostKind::unknown;
}

// Why a host that is not a BlueField's Arm side has no BlueField mode to report.
Gap mode_from_host_side(const std::string& mode_command) {
    if (mode_command.empty()) return Gap{GapReason::not_applicable, "no BlueField is visible here"};
    return Gap{GapReason::permission_denied,
               "from the host the BlueField's mode is readable only with privilege: " +
                   mode_command + " (not run)"};
}

// In DPU (embedded CPU) mode the Arm side owns the eswitch: it has the host's representors and
// the SFs of the OVS data path, noted here as evidence. In NIC mode it has neither.
void note_eswitch_ownership(const DeviceInventory& devices, std::vector<Evidence>& ev) {
    for (const auto& fn : devices.functions) {
        if (fn.kind == FunctionKind::sf)
            ev.push_back({"scalable function " + fn.name, provenance_of(fn.sysfs_path)});
    }
    for (const auto& nd : devices.netdevs) {
        if (is_representor(nd)) {
            ev.push_back({"representor " + nd.name + " (" +
                              std::string(to_string(nd.port_name->flavour)) + ")",
                          nd.phys_port_name.source});
        }
    }
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
    const bool markers = note_arm_side_markers(platform, out.host_kind_evidence);
    const bool management = note_bluefield_functions(devices, out.host_kind_evidence);
    out.host_kind = host_kind_of(platform, markers, management);
    out.bf_mode_command = mode_command(devices);
    if (out.host_kind != HostKind::bluefield) {
        out.bf_mode_gap = mode_from_host_side(out.bf_mode_command);
        return out;
    }
    note_eswitch_ownership(devices, out.bf_mode_evidence);
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
