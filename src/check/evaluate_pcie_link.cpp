// The PCIe link requirement: the pcie-link probe's verdict, over the functions the gate selects.
#include <algorithm>
#include <string>
#include <vector>

#include "check/evaluate.hpp"
#include "text/text.hpp"

namespace rdmi::gate {
namespace {

constexpr const char* kLinkRerun =
    "rerun on the host that has the device (or a root with its /sys, link attributes included)";

Check link_skip(std::string message, std::vector<Provenance> sources = {}) {
    return Check{finding::pcie_link, Status::skip, "cannot be checked: " + std::move(message),
                 kLinkRerun, std::move(sources)};
}

}  // namespace

Check pcie_link_gate(const Policy& policy, const PcieLinkFacts& links, const DevicesFacts* devices,
                     bool pci_bus_present, bool live) {
    if (!pci_bus_present) {
        return link_skip(std::string("no /sys/bus/pci/devices ") +
                         (live ? "on this system (no device access)" : "under --root"));
    }
    // --require-device NAME narrows the gate to that device's functions, as it does for dpa
    // and port-active; without a name every NVIDIA function counts.
    std::vector<PcieLink> selected;
    const std::string which = policy.device.value_or("");
    if (!which.empty() && devices != nullptr) {
        std::vector<std::string> names;
        for (const auto* row : select_devices(*devices, which)) names.push_back(row->function);
        if (names.empty()) return link_skip("no device " + which + " found, so no link of it");
        // The verdict is per link: a named function brings the other functions on its link,
        // so that a sibling that disagrees is named rather than hidden.
        std::vector<std::string> link_ids;
        for (const auto& link : links.links) {
            if (!link.link_id.empty() &&
                std::find(names.begin(), names.end(), link.function) != names.end())
                link_ids.push_back(link.link_id);
        }
        for (const auto& link : links.links) {
            if (std::find(names.begin(), names.end(), link.function) != names.end() ||
                (!link.link_id.empty() &&
                 std::find(link_ids.begin(), link_ids.end(), link.link_id) != link_ids.end()))
                selected.push_back(link);
        }
    } else {
        selected = links.links;
    }
    if (selected.empty()) return link_skip("no NVIDIA PCI function found, so no link to judge");
    auto check = pcie_link_check(selected);
    if (!check) {
        // Every selected function is a VF, an SF, behind its card's switch or without link
        // attributes: each one's reason, since the cure differs (name the PF, read a fuller
        // /sys).
        std::vector<std::string> why;
        why.reserve(selected.size());
        for (const auto& link : selected) {
            // A VF's or SF's message ("VF: shares its PF's link") does not name it.
            why.push_back(link.message.starts_with(link.function)
                              ? link.message
                              : link.function + " (" + link.message + ")");
        }
        return link_skip("no PCIe link of its own to judge: " + join(why, "; "));
    }
    if (check->status == Status::skip && check->remediation.empty()) {
        check->remediation =
            "rerun where each PF's current_link_* and max_link_* files can be read (a link "
            "that is down or not trained has none to judge)";
    }
    return *check;
}

}  // namespace rdmi::gate
