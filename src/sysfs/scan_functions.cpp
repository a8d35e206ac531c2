// Scans PCI functions (/sys/bus/pci/devices) and scalable functions
// (/sys/bus/auxiliary/devices) into Function records.
#include <algorithm>
#include <charconv>

#include "sysfs/attr_dir.hpp"
#include "sysfs/attr_text.hpp"
#include "sysfs/pci_attrs.hpp"
#include "sysfs/pci_ids.hpp"
#include "sysfs/scan_steps.hpp"

namespace rdmi::sysfs {
namespace {

constexpr std::string_view kPciDevices = "/sys/bus/pci/devices";
constexpr std::string_view kAuxDevices = "/sys/bus/auxiliary/devices";
constexpr std::string_view kSfPrefix = "mlx5_core.sf.";

template <typename T>
Sourced<T> not_applicable(const std::string& why, Provenance from) {
    return Sourced<T>::missing(Gap{GapReason::not_applicable, why}, std::move(from));
}

std::string hex_id(std::uint32_t id) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "0x";
    for (int shift = 12; shift >= 0; shift -= 4)
        out += kDigits[(id >> static_cast<unsigned>(shift)) & 0xfU];
    return out;
}

Sourced<std::string> product_of(const Sourced<std::uint32_t>& device) {
    if (!device.ok())
        return Sourced<std::string>::missing(*device.gap, Provenance{"derived", "PCI id table"});
    const Provenance from{"derived", "PCI id table, device " + hex_id(*device.value)};
    auto product = find_product(*device.value);
    if (!product) {
        return Sourced<std::string>::missing(
            Gap{GapReason::not_found,
                "PCI device id " + hex_id(*device.value) + " is not in the product table"},
            from);
    }
    return Sourced<std::string>::of(std::string(product->name), from);
}

std::uint32_t virtfn_number(std::string_view name) {
    std::uint32_t n = 0;
    name.remove_prefix(std::string_view("virtfn").size());
    std::from_chars(name.data(), name.data() + name.size(), n);
    return n;
}

// A vendor file we cannot read still lets an mlx driver binding vouch for the function.
bool bound_to_mlx_driver(const Sourced<std::string>& driver) {
    return driver.ok() && driver.value->rfind("mlx", 0) == 0;
}

void fill_kind(const AttrDir& dir, Function& fn) {
    const auto product = fn.device.ok() ? find_product(*fn.device.value) : std::nullopt;
    auto physfn = dir.link_name("physfn");
    if (physfn.ok()) {
        fn.kind = FunctionKind::vf;
        fn.parent_pf = std::move(physfn);
        if (!is_pci_address(*fn.parent_pf.value)) {
            fn.parent_pf = Sourced<std::string>::missing(
                Gap{GapReason::malformed, dir.shown("physfn") + ": not a PCI address: " +
                                              quote_for_message(*fn.parent_pf.value)},
                fn.parent_pf.source);
        }
        return;
    }
    if (product && product->virtual_function) {
        // A VF passed through to a virtual machine has no physfn link there.
        fn.kind = FunctionKind::vf;
        fn.parent_pf = Sourced<std::string>::missing(
            Gap{GapReason::not_found,
                physfn.gap->message + " (a VF id without its PF: assigned to a guest?)"},
            physfn.source);
        return;
    }
    fn.kind = FunctionKind::pf;
    fn.parent_pf = not_applicable<std::string>("a PF has no parent function", physfn.source);
}

void fill_sriov(const AttrDir& dir, Function& fn) {
    if (fn.kind == FunctionKind::vf) {
        fn.sriov_totalvfs = not_applicable<std::uint32_t>(
            dir.shown("sriov_totalvfs") + ": a VF has no SR-IOV capability",
            dir.source("sriov_totalvfs"));
        fn.sriov_numvfs = not_applicable<std::uint32_t>(
            dir.shown("sriov_numvfs") + ": a VF has no SR-IOV capability",
            dir.source("sriov_numvfs"));
        return;
    }
    fn.sriov_totalvfs = dir.get<std::uint32_t>("sriov_totalvfs", parse_count);
    fn.sriov_numvfs = dir.get<std::uint32_t>("sriov_numvfs", parse_count);
    auto entries = dir.fs().list_dir(dir.actual_dir());
    if (!entries) {
        fn.gaps.push_back(dir.located("", entries.gap()));
        return;
    }
    std::vector<std::pair<std::uint32_t, std::string>> vfs;
    for (const auto& entry : *entries) {
        if (entry.name.rfind("virtfn", 0) != 0 || entry.name.size() == 6) continue;
        auto target = dir.link_name(entry.name);
        if (target.ok()) {
            vfs.emplace_back(virtfn_number(entry.name), *target.value);
        } else {
            fn.gaps.push_back(*target.gap);
        }
    }
    std::sort(vfs.begin(), vfs.end());
    for (auto& vf : vfs) fn.virtfns.push_back(std::move(vf.second));
}

void scan_one_pci(const Fs& fs, const std::string& name, DeviceInventory& inventory) {
    const std::string shown = join_path(kPciDevices, name);
    auto real = fs.real_path(shown);
    if (!real) {
        inventory.gaps.push_back(real.gap());
        inventory.unexamined_pci.push_back(real.gap());
        return;
    }
    const AttrDir dir(fs, shown, *real);
    Function fn;
    fn.name = name;
    fn.sysfs_path = shown;
    fn.device_path = *real;
    fn.pci_address = name;
    fn.vendor = dir.get<std::uint32_t>("vendor", parse_pci_id);
    if (fn.vendor.ok() && *fn.vendor.value != kMellanoxVendorId) return;
    fn.driver = dir.link_name("driver");
    if (!fn.vendor.ok() && !bound_to_mlx_driver(fn.driver)) {
        const Gap unread{
            fn.vendor.gap->reason,
            fn.vendor.gap->message + " (skipped: cannot tell whether it is an NVIDIA function)"};
        inventory.gaps.push_back(unread);
        inventory.unexamined_pci.push_back(unread);
        return;
    }
    fn.device = dir.get<std::uint32_t>("device", parse_pci_id);
    fn.subsystem_vendor = dir.get<std::uint32_t>("subsystem_vendor", parse_pci_id);
    fn.subsystem_device = dir.get<std::uint32_t>("subsystem_device", parse_pci_id);
    fn.product = product_of(fn.device);
    fn.numa_node = dir.get<std::int32_t>("numa_node", parse_numa_node);
    fn.sfnum =
        not_applicable<std::uint32_t>("only a scalable function has an sfnum", dir.source("sfnum"));
    fill_kind(dir, fn);
    fill_sriov(dir, fn);
    inventory.functions.push_back(std::move(fn));
}

void scan_one_sf(const Fs& fs, const std::string& name, DeviceInventory& inventory) {
    const std::string shown = join_path(kAuxDevices, name);
    auto real = fs.real_path(shown);
    if (!real) {
        inventory.gaps.push_back(real.gap());
        return;
    }
    const AttrDir dir(fs, shown, *real);
    const Provenance here = provenance_of(shown);
    Function fn;
    fn.name = name;
    fn.kind = FunctionKind::sf;
    fn.sysfs_path = shown;
    fn.device_path = *real;
    // The SF's auxiliary device sits directly below its PF's PCI device (mlx5 sf/dev/dev.c).
    const std::string parent(base_name(dir_name(*real)));
    if (is_pci_address(parent)) {
        fn.pci_address = parent;
        fn.parent_pf = Sourced<std::string>::of(parent, here);
    } else {
        fn.parent_pf = Sourced<std::string>::missing(
            Gap{GapReason::malformed,
                shown + ": resolves to " + *real + ", which is not below a PCI function"},
            here);
    }
    const std::string why = "a scalable function has no PCI configuration space";
    fn.vendor = not_applicable<std::uint32_t>(why, here);
    fn.device = not_applicable<std::uint32_t>(why, here);
    fn.subsystem_vendor = not_applicable<std::uint32_t>(why, here);
    fn.subsystem_device = not_applicable<std::uint32_t>(why, here);
    fn.product = not_applicable<std::string>(why, here);
    fn.numa_node = not_applicable<std::int32_t>(why, here);
    fn.sriov_totalvfs = not_applicable<std::uint32_t>(why, here);
    fn.sriov_numvfs = not_applicable<std::uint32_t>(why, here);
    fn.driver = dir.link_name("driver");
    fn.sfnum = dir.get<std::uint32_t>("sfnum", parse_count);
    inventory.functions.push_back(std::move(fn));
}

}  // namespace

bool is_sf_name(std::string_view name) {
    if (name.substr(0, kSfPrefix.size()) != kSfPrefix || name.size() == kSfPrefix.size())
        return false;
    return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(kSfPrefix.size()), name.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
}

void scan_pci_functions(const Fs& fs, DeviceInventory& inventory) {
    auto entries = fs.list_dir(kPciDevices);
    if (!entries) {
        inventory.gaps.push_back(entries.gap());
        return;
    }
    for (const auto& entry : *entries) {
        if (!is_pci_address(entry.name)) {
            inventory.gaps.push_back(Gap{
                GapReason::malformed, join_path(kPciDevices, entry.name) + ": not a PCI address"});
            continue;
        }
        scan_one_pci(fs, entry.name, inventory);
    }
}

void scan_subfunctions(const Fs& fs, DeviceInventory& inventory) {
    auto entries = fs.list_dir(kAuxDevices);
    if (!entries) {
        // No auxiliary bus simply means no SFs (the bus appears with the first aux driver).
        if (entries.gap().reason != GapReason::not_found) inventory.gaps.push_back(entries.gap());
        return;
    }
    for (const auto& entry : *entries) {
        if (is_sf_name(entry.name)) scan_one_sf(fs, entry.name, inventory);
    }
}

void infer_dpa(DeviceInventory& inventory) {
    std::map<std::string, const Function*, std::less<>> pfs;
    for (const auto& fn : inventory.functions) {
        if (fn.kind == FunctionKind::pf) pfs.emplace(fn.name, &fn);
    }
    auto own = [](const Function& fn) -> Sourced<DpaCapability> {
        if (!fn.device.ok()) {
            return Sourced<DpaCapability>::missing(
                Gap{fn.device.gap->reason, "cannot infer DPA: " + fn.device.gap->message},
                Provenance{"derived", "inferred from the PCI device id"});
        }
        const std::string id = hex_id(*fn.device.value);
        const Provenance from{"derived", "inferred from PCI device id " + id};
        auto product = find_product(*fn.device.value);
        if (!product) {
            return Sourced<DpaCapability>::of(
                DpaCapability{DpaSupport::unknown, "device id " + id + " is not in the table"},
                from);
        }
        return Sourced<DpaCapability>::of(
            DpaCapability{product->dpa, std::string(product->dpa_note)}, from);
    };
    std::vector<Sourced<DpaCapability>> results;
    results.reserve(inventory.functions.size());
    for (const auto& fn : inventory.functions) {
        if (fn.kind == FunctionKind::pf) {
            results.push_back(own(fn));
            continue;
        }
        const auto pf = fn.parent_pf.ok() ? pfs.find(*fn.parent_pf.value) : pfs.end();
        if (pf == pfs.end()) {
            results.push_back(Sourced<DpaCapability>::of(
                DpaCapability{DpaSupport::unknown, "parent PF not visible"},
                Provenance{"derived", "a VF or SF shares its PF's DPA"}));
            continue;
        }
        auto inherited = own(*pf->second);
        inherited.source.ref = "inherited from PF " + pf->first + ", " + inherited.source.ref;
        results.push_back(std::move(inherited));
    }
    for (std::size_t i = 0; i < results.size(); ++i)
        inventory.functions[i].dpa = std::move(results[i]);
}

}  // namespace rdmi::sysfs
